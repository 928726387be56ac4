package org.mrconf.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.analyze.SyntheticCapture;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.verdict.Verdict;

/**
 * {@code metaroce bench analyze}: the passive analyser's packet rate beside tshark's with the project's Lua dissector
 * on the same capture, in one run, and the analyser's heap on a long capture. Writes {@code analyze.md}.
 */
public final class AnalyzeBenchmark {
    private final Path out;
    private final long packets;
    private final long longPackets;
    private final int paths;
    private final Path dissector;

    /**
     * @param out folder for analyze.md
     * @param packets frames in the rate capture
     * @param longPackets frames in the memory capture; 0 skips it
     * @param paths paths the traffic is sprayed over
     * @param dissector the Lua dissector tshark loads
     */
    public AnalyzeBenchmark(
            final Path out, final long packets, final long longPackets, final int paths, final Path dissector) {
        this.out = out;
        this.packets = packets;
        this.longPackets = longPackets;
        this.paths = paths;
        this.dissector = dissector;
    }

    /** Measures, writes analyze.md and prints it on {@code console}; returns the exit code (0). */
    public int run(final PrintWriter console) throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Path work = Files.createTempDirectory("metaroce-bench-analyze");
        try {
            final Path capture = work.resolve("rate.pcap");
            SyntheticCapture.write(capture, packets, paths, 1);
            analyse(capture, catalogue); // warm-up: JIT, class loading
            final long analyseStart = System.nanoTime();
            final CaptureAnalysis analysis = analyse(capture, catalogue);
            final double analyseSeconds = (System.nanoTime() - analyseStart) / 1e9;
            final long failures = analysis.cases().stream()
                    .filter(c -> c.verdict() == Verdict.FAIL)
                    .count();
            final double tsharkSeconds = tshark(capture, work);
            final String memory = longPackets > 0 ? memory(work.resolve("long.pcap"), catalogue) : "not measured";
            final List<String> lines = new ArrayList<>();
            lines.add("# Passive analysis speed and memory");
            lines.add("");
            final String heapCap = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .filter(argument -> argument.startsWith("-Xmx"))
                    .findFirst()
                    .map(argument -> "java " + argument + " -jar conformance-cli/cli/target/metaroce.jar")
                    .orElse("./metaroce");
            lines.add("Command: `" + heapCap + " bench analyze --packets " + packets + " --long-packets " + longPackets
                    + " --paths " + paths + "`");
            lines.add("");
            lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, shared with other jobs while "
                    + "it ran (load average " + loadAverage() + " at the start), "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ", Java "
                    + System.getProperty("java.version") + ". Both tools read the same synthetic capture (WRITEs of 64 "
                    + "bytes over " + paths + " paths, 1% resent after a SACK gap, an ACK per path every 4 packets) "
                    + "in the same run; the analyser's figure is its second pass (after JIT warm-up), tshark's is one "
                    + "`tshark -n -X lua_script:metaroce.lua -r CAPTURE -T fields -e metaroce.psn`, which dissects "
                    + "every packet.");
            lines.add("");
            lines.add("| tool | frames | seconds | frames/s |");
            lines.add("| --- | ---: | ---: | ---: |");
            lines.add(String.format(
                    "| metaroce analyze | %d | %.2f | %.0f |",
                    analysis.frames(), analyseSeconds, analysis.frames() / analyseSeconds));
            lines.add(String.format(
                    "| tshark + metaroce.lua | %d | %.2f | %.0f |",
                    analysis.frames(), tsharkSeconds, analysis.frames() / tsharkSeconds));
            lines.add("");
            lines.add(String.format(
                    "Ratio: the analyser reads %.1f times as many frames per second as tshark "
                            + "(target: at least 10).",
                    tsharkSeconds / analyseSeconds));
            lines.add("");
            lines.add("Verdicts on the rate capture: " + failures + " FAIL (a conformant capture: 0 expected).");
            lines.add("");
            lines.add("Memory: " + memory);
            lines.add("");
            Files.createDirectories(out);
            Files.write(out.resolve("analyze.md"), lines, StandardCharsets.UTF_8);
            lines.forEach(console::println);
            console.flush();
            return 0;
        } finally {
            deleteTree(work);
        }
    }

    private static String loadAverage() {
        final double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "not reported" : String.format("%.2f", load);
    }

    private CaptureAnalysis analyse(final Path capture, final ClauseCatalogue catalogue) throws IOException {
        return CaptureAnalysis.of(capture, 4796, Duration.ofMillis(5), catalogue, Map.of(), Optional.empty());
    }

    private double tshark(final Path capture, final Path work) throws Exception {
        final Path sink = work.resolve("tshark.out");
        final long start = System.nanoTime();
        final Process process = new ProcessBuilder(
                        "tshark",
                        "-n",
                        "-X",
                        "lua_script:" + dissector.toAbsolutePath(),
                        "-r",
                        capture.toString(),
                        "-T",
                        "fields",
                        "-e",
                        "metaroce.psn")
                .redirectOutput(sink.toFile())
                .redirectError(work.resolve("tshark.err").toFile())
                .start();
        if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IOException("tshark failed: " + Files.readString(work.resolve("tshark.err")));
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private String memory(final Path capture, final ClauseCatalogue catalogue) throws IOException {
        SyntheticCapture.write(capture, longPackets, paths, 2);
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        final long before = memory.getHeapMemoryUsage().getUsed();
        final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .toList();
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        final long start = System.nanoTime();
        final CaptureAnalysis analysis = analyse(capture, catalogue);
        final double seconds = (System.nanoTime() - start) / 1e9;
        // The sum of each heap pool's peak: an upper bound of the heap in use at any moment, garbage included.
        final long peakHeap = heapPools.stream()
                .mapToLong(pool -> pool.getPeakUsage().getUsed())
                .sum();
        System.gc();
        final long after = memory.getHeapMemoryUsage().getUsed();
        return String.format(
                "a capture of %d frames (%.1f GB on disk) over %d paths, analysed in %.1f s (%.0f frames/s) by a JVM "
                        + "capped at %.0f MB of heap (-Xmx): peak heap in use during the analysis %.1f MB (sum of the "
                        + "heap pools' peaks, garbage included); live heap after GC %.1f MB before and %.1f MB after "
                        + "(the analysis result still referenced); peak resident set of the whole JVM process %s. The "
                        + "analyser streams the file frame by frame and keeps %d PSNs a path (about 140 KB a path), "
                        + "whatever the capture's length.",
                analysis.frames(),
                Files.size(capture) / 1e9,
                analysis.paths(),
                seconds,
                analysis.frames() / seconds,
                Runtime.getRuntime().maxMemory() / 1e6,
                peakHeap / 1e6,
                before / 1e6,
                after / 1e6,
                peakResidentSet(),
                1024);
    }

    /** The process's peak resident set (VmHWM), where Linux reports it. */
    private static String peakResidentSet() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return String.format("%.1f MB", Long.parseLong(line.replaceAll("[^0-9]", "")) / 1e3);
                }
            }
        } catch (final IOException | NumberFormatException e) {
            // not Linux, or an unexpected format: say so below
        }
        return "not reported by this OS";
    }

    private static void deleteTree(final Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (final Path path :
                    paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}

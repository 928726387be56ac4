package org.mrconf.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.mrconf.catalogue.CatalogueException;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.devices.OpenDevice;
import org.mrconf.report.ReportWriters;
import org.mrconf.runner.BuildInfo;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.LanedRun;
import org.mrconf.runner.LivenessProbe;
import org.mrconf.runner.RunFolders;
import org.mrconf.runner.RunJournal;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce bench stability}: runs the whole suite N times against one device (by default the reference soft
 * DUT over loopback UDP, started here) while a CPU hog keeps every core busy, and writes
 * {@code reports/benchmarks/stability.md}: the command, the machine, each run's verdicts and their digest, and
 * whether every run gave the same verdicts. A case that races a timer it does not control shows up here as a digest
 * that differs.
 */
@Command(
        name = "stability",
        mixinStandardHelpOptions = true,
        description = {
            "Run the suite N times against a device while a CPU hog loads every core.",
            "Checks that every run gives the same verdicts. Writes stability.md."
        })
public final class StabilityCommand implements Callable<Integer> {
    @Option(
            names = "--runs",
            defaultValue = "20",
            paramLabel = "N",
            description = "How many runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(
            names = "--dut",
            paramLabel = "TARGET",
            description =
                    "The device, as for run --dut (default: the reference soft DUT over loopback UDP, started here).")
    String target;

    @Option(
            names = "--hog-threads",
            paramLabel = "N",
            description = "Busy threads of the CPU hog (default: one per core).")
    Integer hogThreads;

    @Option(
            names = "--out",
            defaultValue = "reports/benchmarks",
            paramLabel = "DIR",
            description = "Folder for stability.md (default: ${DEFAULT-VALUE}).")
    Path out;

    @Spec
    CommandSpec spec;

    /** One run's outcome. */
    record Run(int number, Map<String, Verdict> verdicts, Duration took) {
        String digest() {
            return StabilityCommand.digest(verdicts);
        }

        String counts() {
            final Map<Verdict, Long> counts = new TreeMap<>(
                    verdicts.values().stream().collect(Collectors.groupingBy(v -> v, Collectors.counting())));
            return counts.entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "));
        }
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || runs > 1000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--runs must be 1 to 1000: " + runs);
        }
        final PrintWriter console = spec.commandLine().getOut();
        final int threads =
                hogThreads != null ? hogThreads : Runtime.getRuntime().availableProcessors();
        final List<Run> done = new ArrayList<>();
        SoftDut softDut = null;
        String device = target;
        try (CpuHog hog = CpuHog.start(threads)) {
            if (device == null) {
                softDut = SoftDut.start(SoftDutOptions.builder()
                        .bindAddress(InetAddress.getLoopbackAddress())
                        .udpPort(0)
                        .controlPort(0)
                        .build());
                device = "udp://127.0.0.1:" + softDut.udpPort() + "?control=" + softDut.controlPort();
            }
            for (int i = 1; i <= runs; i++) {
                final Instant start = Instant.now();
                final Map<String, Verdict> verdicts = new TreeMap<>();
                final Map<String, String> reasons = new TreeMap<>();
                // The embedded reference runs in two lanes, as `metaroce run` runs it; a device outside the JVM in one.
                try (OpenDevice opened = OpenDevice.open(device);
                        OpenDevice vectorLane = opened.twin().orElse(null)) {
                    final RunOptions options = new RunOptions(
                            Selection.ALL,
                            opened.controlEndpoint()
                                    .map(e -> LivenessProbe.helloOn(e, LivenessProbe.DEFAULT_TIMEOUT))
                                    .orElse(LivenessProbe.alwaysAlive()));
                    final List<CaseResult> results = vectorLane == null
                            ? CaseRunner.run(opened.device(), options, r -> {})
                            : LanedRun.run(opened.device(), vectorLane.device(), options, r -> {});
                    if (results.stream()
                            .anyMatch(r -> r.verdict() != Verdict.PASS && r.verdict() != Verdict.NOT_APPLICABLE)) {
                        console.printf(
                                "        reports of run %d (evidence of what did not pass): %s%n",
                                i, keepReports(i, device, opened, results));
                    }
                    for (final CaseResult result : results) {
                        verdicts.put(result.caseId(), result.verdict());
                        reasons.put(
                                result.caseId(),
                                result.message().lines().findFirst().orElse(""));
                    }
                }
                final Run run = new Run(i, verdicts, Duration.between(start, Instant.now()));
                done.add(run);
                console.printf(
                        "run %2d/%d: %s  %s  (%d s)%n",
                        i, runs, run.digest(), run.counts(), run.took().toSeconds());
                run.verdicts().forEach((caseId, verdict) -> {
                    if (verdict != Verdict.PASS && verdict != Verdict.NOT_APPLICABLE) {
                        console.printf("        %s %s: %s%n", verdict, caseId, reasons.get(caseId));
                    }
                });
                console.flush();
            }
        } finally {
            if (softDut != null) {
                softDut.close();
            }
        }
        final boolean identical = done.stream().map(Run::digest).distinct().count() == 1;
        final Path file = out.resolve("stability.md");
        Files.createDirectories(out);
        Files.writeString(file, markdown(done, identical, threads, target), StandardCharsets.UTF_8);
        final long same = done.stream()
                .filter(r -> r.digest().equals(done.get(0).digest()))
                .count();
        console.printf("%d of %d runs identical to run 1; wrote %s%n", same, done.size(), file);
        console.flush();
        return identical ? 0 : 1;
    }

    /**
     * Writes the four reports of a run that did not pass throughout, evidence included (the packets around each case
     * that did not pass), into {@code reports/runs/<time>-stability-run-N/}, so that a verdict that flips under load
     * can be explained afterwards; returns the folder.
     */
    private static Path keepReports(
            final int run, final String device, final OpenDevice opened, final List<CaseResult> results)
            throws IOException, CatalogueException {
        final Path folder = RunFolders.defaultFor("stability-run-" + run, java.time.Clock.systemUTC());
        final RunJournal journal = new RunJournal(
                BuildInfo.current(),
                new CatalogueLoader().loadBundled(),
                "metaroce bench stability (run " + run + ")",
                RunJournal.describe(device, opened.device().profile(), java.util.Optional.empty()),
                Map.of());
        results.forEach(journal::add);
        ReportWriters.writeAll(folder, journal.snapshot(true, false));
        return folder;
    }

    private String markdown(final List<Run> done, final boolean identical, final int threads, final String dut)
            throws IOException {
        final StringBuilder md = new StringBuilder();
        md.append("# Verdict stability under CPU load\n\n");
        md.append("Made by `./metaroce bench stability --runs ").append(runs);
        if (dut != null) {
            md.append(" --dut ").append(dut);
        }
        if (hogThreads != null) {
            md.append(" --hog-threads ").append(hogThreads);
        }
        md.append("`: the whole suite run ")
                .append(runs)
                .append(" times against ")
                .append(dut == null ? "the reference soft DUT over loopback UDP (started by the command)" : dut)
                .append(", while ")
                .append(threads)
                .append(" busy threads keep every core loaded.\n\n");
        md.append("Machine: ").append(machine()).append("\n\n");
        md.append("Result: **")
                .append(done.stream()
                        .filter(r -> r.digest().equals(done.get(0).digest()))
                        .count())
                .append(" of ")
                .append(done.size())
                .append(" runs gave identical verdicts**")
                .append(identical ? "." : " (NOT all identical: see the digests below).")
                .append("\n\n");
        md.append("A run with a verdict other than PASS or NOT_APPLICABLE keeps its four reports, with the evidence of"
                + " each such case, in `reports/runs/<time>-stability-run-N/`.\n\n");
        md.append("| Run | Verdict digest | Verdicts | Took |\n| ---: | --- | --- | ---: |\n");
        for (final Run run : done) {
            md.append("| ")
                    .append(run.number())
                    .append(" | `")
                    .append(run.digest())
                    .append("` | ")
                    .append(run.counts())
                    .append(" | ")
                    .append(run.took().toSeconds())
                    .append(" s |\n");
        }
        final Map<String, Long> digests =
                done.stream().collect(Collectors.groupingBy(Run::digest, Collectors.counting()));
        final String majority = digests.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        final Run reference = done.stream()
                .filter(r -> r.digest().equals(majority))
                .findFirst()
                .orElseThrow();
        final List<String> differences = new ArrayList<>();
        for (final Run run : done) {
            run.verdicts().forEach((caseId, verdict) -> {
                if (verdict != reference.verdicts().get(caseId)) {
                    differences.add("| " + run.number() + " | " + caseId + " | " + verdict + " | "
                            + reference.verdicts().get(caseId) + " |");
                }
            });
        }
        if (!differences.isEmpty()) {
            md.append("\nVerdicts that differ from the most common run (run ")
                    .append(reference.number())
                    .append("):\n\n| Run | Case | Verdict | Most common |\n| ---: | --- | --- | --- |\n");
            differences.forEach(line -> md.append(line).append('\n'));
        }
        md.append(
                "\nThe digest is the first 16 hex digits of SHA-256 over the sorted `case=verdict` lines. Run 1's:\n\n");
        md.append("| Case | Verdict |\n| --- | --- |\n");
        done.get(0)
                .verdicts()
                .forEach((k, v) ->
                        md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
        return md.toString();
    }

    private static String machine() throws IOException {
        String cpu = "unknown CPU";
        final Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            cpu = Files.readAllLines(cpuinfo).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst()
                    .orElse(cpu);
        }
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB heap, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + ", Java " + System.getProperty("java.version")
                + "; other users' work ran on the machine at the same time";
    }

    static String digest(final Map<String, Verdict> verdicts) {
        try {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            final Map<String, Verdict> sorted = new LinkedHashMap<>(new TreeMap<>(verdicts));
            sorted.forEach((k, v) -> sha.update((k + "=" + v + "\n").getBytes(StandardCharsets.UTF_8)));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Busy threads that keep every core loaded while the suite runs; stopped on close. */
    static final class CpuHog implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;

        static CpuHog start(final int count) {
            final CpuHog hog = new CpuHog();
            for (int i = 0; i < count; i++) {
                final Thread thread = new Thread(hog::spin, "cpu-hog-" + i);
                thread.setDaemon(true);
                hog.threads.add(thread);
                thread.start();
            }
            return hog;
        }

        private void spin() {
            long x = 1;
            while (running) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            if (x == 42) {
                System.out.print(""); // keeps the loop from being optimised away
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            for (final Thread thread : threads) {
                thread.join(1000);
            }
        }
    }
}

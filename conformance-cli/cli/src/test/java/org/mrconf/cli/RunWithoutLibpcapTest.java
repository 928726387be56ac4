package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.pcap.Libpcap;
import org.mrconf.pcap.PcapUnavailableException;

/**
 * On a machine without libpcap, {@code metaroce run} replays the test vectors (issue 35): capture files are read by
 * the pure-Java {@code PcapReader}, and only the raw-Ethernet link needs libpcap. Each check runs in a JVM of its own
 * whose Pcap4J looks for a libpcap that does not exist ({@value #LIB_NAME_PROPERTY}), as on such a machine; the first
 * check shows the library is indeed hidden there.
 */
class RunWithoutLibpcapTest {
    private static final String LIB_NAME_PROPERTY = "org.pcap4j.core.pcapLibName";
    private static final String HIDDEN = "-D" + LIB_NAME_PROPERTY + "=mrconf-no-such-libpcap";

    @TempDir
    Path dir;

    @Test
    void shouldReplayEveryVectorWithLibpcapHidden() throws Exception {
        final Result probe = java(List.of(RunWithoutLibpcapTest.class.getName()));
        assertThat(probe.out()).as("the forked JVM cannot load libpcap").startsWith("libpcap not found");

        final Path runDir = dir.resolve("run");
        final Result run = java(List.of(
                MetaroceCommand.class.getName(),
                "run",
                "--case",
                "vector:*",
                "--jobs",
                "1",
                "--out",
                runDir.toString()));

        assertThat(run.exit())
                .as("exit; stdout:%n%s%nstderr:%n%s", run.out(), run.err())
                .isZero();
        assertThat(run.out() + run.err()).doesNotContainIgnoringCase("libpcap");
        final String report = Files.readString(runDir.resolve("report.json"));
        assertThat(report).contains("\"vector:7.4.").contains("\"vector:5.6.").contains("\"vector:10.1.");
        assertThat(run.out()).containsPattern("(?m)^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$");
        // Every vector of the corpus has its verdict: replayed and passed, or not applicable to what it claims.
        final int vectors = org.mrconf.replay.VectorCorpus.discover(
                        Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors"),
                        new org.mrconf.catalogue.CatalogueLoader().loadBundled())
                .vectors()
                .size();
        assertThat(vectors).isGreaterThanOrEqualTo(100);
        assertThat(run.out().lines().filter(l -> l.matches("^(PASS|NOT_APPLICABLE) .* vector:\\S+$")))
                .as("a verdict line per vector in%n%s", run.out())
                .hasSize(vectors);
        assertThat(run.out().lines().filter(l -> l.startsWith("PASS ")).count())
                .as("most vectors replay (PASS), the others do not apply to the reference's claims")
                .isGreaterThan(vectors * 9L / 10);
    }

    /** The probe the test forks: prints whether Pcap4J can load libpcap in this JVM. */
    public static void main(final String[] args) {
        try {
            System.out.println("libpcap loaded: " + Libpcap.version());
        } catch (final PcapUnavailableException e) {
            System.out.println(e.getMessage());
        }
    }

    private record Result(int exit, String out, String err) {}

    private Result java(final List<String> arguments) throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(HIDDEN);
        command.add("-Dmrconf.root=" + System.getProperty("mrconf.root", "../.."));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.addAll(arguments);
        final Path out = Files.createTempFile(dir, "out", ".txt");
        final Path err = Files.createTempFile(dir, "err", ".txt");
        final Process process = new ProcessBuilder(command)
                .directory(Path.of(System.getProperty("mrconf.root", "../..")).toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the forked JVM did not finish in 5 minutes: " + Files.readString(out));
        }
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}

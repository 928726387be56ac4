package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.cases.Testbed;
import org.mrconf.dut.ControlEndpoint;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.dut.JsonLineControlClient;

/**
 * The issue-16 acceptance for a lost device, with real processes: a soft DUT process and a {@code metaroce run}
 * process against it. Killing the DUT (kill -9) or freezing it (SIGSTOP) mid-run makes the remaining cases ERROR,
 * never FAIL, within a bounded time, with exit code 3 and the reports written; SIGINT to the run writes the
 * reports marked interrupted and leaves the DUT reset.
 */
class DutLossTest {
    /** How long the run may take to end once the device is gone: well under one timeout per case. */
    private static final long BOUND_SECONDS = 60;

    @TempDir
    Path dir;

    private int udpPort;
    private int controlPort;
    private Process dut;
    private Process run;
    private final StringBuffer runOutput = new StringBuffer();

    @BeforeEach
    void startSoftDut() throws Exception {
        udpPort = DeviceProcesses.freePort();
        controlPort = DeviceProcesses.freePort();
        dut = DeviceProcesses.startSoftDut(
                List.of(),
                "--bind",
                "127.0.0.1",
                "--port",
                String.valueOf(udpPort),
                "--control-port",
                String.valueOf(controlPort));
        DeviceProcesses.awaitListening(dut, new InetSocketAddress("127.0.0.1", controlPort));
    }

    @AfterEach
    void stopAll() throws Exception {
        if (dut != null) {
            DeviceProcesses.runQuietly("kill", "-CONT", String.valueOf(dut.pid()));
            DeviceProcesses.stop(dut);
        }
        if (run != null) {
            run.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(240)
    void shouldEndTheRestOfTheRunInErrorWithExitCodeThreeWhenTheDeviceIsKilled() throws Exception {
        startRun();
        awaitFirstVerdict();

        dut.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        final long killedNs = System.nanoTime();

        assertThat(run.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
                .as("run output:%n%s", runOutput)
                .isTrue();
        assertThat(System.nanoTime() - killedNs).isLessThan(TimeUnit.SECONDS.toNanos(BOUND_SECONDS));
        assertThat(run.exitValue()).as("run output:%n%s", runOutput).isEqualTo(3);
        assertLostDeviceReported();
    }

    @Test
    @Timeout(240)
    void shouldEndTheRestOfTheRunInErrorWhenTheDeviceHangs() throws Exception {
        startRun();
        awaitFirstVerdict();

        DeviceProcesses.run("kill", "-STOP", String.valueOf(dut.pid()));
        final long stoppedNs = System.nanoTime();

        assertThat(run.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
                .as("run output:%n%s", runOutput)
                .isTrue();
        assertThat(System.nanoTime() - stoppedNs).isLessThan(TimeUnit.SECONDS.toNanos(BOUND_SECONDS));
        assertThat(run.exitValue()).as("run output:%n%s", runOutput).isEqualTo(3);
        assertLostDeviceReported();
    }

    @Test
    @Timeout(240)
    void shouldWriteTheReportsMarkedInterruptedAndResetTheDeviceOnSigint() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(
                sigintIgnored(),
                "this JVM was started with SIGINT ignored (a background job of a shell without job control, e.g."
                        + " `nohup mvn verify &`), which the run's JVM inherits, so no SIGINT can reach it; run the"
                        + " build in the foreground to exercise this test");
        startRun();
        awaitFirstVerdict();

        DeviceProcesses.run("kill", "-INT", String.valueOf(run.pid()));

        assertThat(run.waitFor(BOUND_SECONDS, TimeUnit.SECONDS))
                .as("run output:%n%s", runOutput)
                .isTrue();
        awaitOutput("the device was reset");
        assertThat(runOutput.toString()).contains("Interrupted:");
        final JsonNode report = new ObjectMapper()
                .readTree(dir.resolve("run").resolve("report.json").toFile());
        assertThat(report.path("interrupted").asBoolean())
                .as("report.json interrupted")
                .isTrue();
        assertThat(report.path("cases").size()).isPositive();
        assertThat(dir.resolve("run").resolve("junit.xml")).isRegularFile();
        // Left clean: the run's connection is gone from the device.
        try (JsonLineControlClient control =
                JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", controlPort))) {
            try {
                control.destroyConnection(Testbed.DUT_CONNECTION);
                throw new AssertionError("the run's connection was left on the device");
            } catch (final DutControlException e) {
                assertThat(e.code()).isEqualTo(DutErrorCode.NOT_FOUND);
            }
        }
    }

    /**
     * Whether this process ignores SIGINT, as a child started from it then does (Linux: bit 2 of {@code SigIgn} in
     * {@code /proc/self/status}); false where that cannot be read.
     */
    private static boolean sigintIgnored() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(
                                            line.substring("SigIgn:".length()).trim(), 16)
                                    & 0x2L)
                            != 0;
                }
            }
        } catch (final java.io.IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }

    private void assertLostDeviceReported() throws Exception {
        final String output = runOutput.toString();
        assertThat(output).as("no conformance FAIL for a lost device").doesNotContainPattern("(?m)^FAIL ");
        assertThat(output).contains("device under test lost: ").containsPattern("(?m)^ERROR ");
        final JsonNode report = new ObjectMapper()
                .readTree(dir.resolve("run").resolve("report.json").toFile());
        final List<String> verdicts = new ArrayList<>();
        report.path("cases").forEach(c -> verdicts.add(c.path("verdict").asText()));
        assertThat(verdicts).contains("ERROR").doesNotContain("FAIL");
    }

    private void startRun() throws Exception {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.mrconf.cli.MetaroceCommand");
        command.add("run");
        command.add("--dut");
        command.add("udp://127.0.0.1:" + udpPort + "?control=" + controlPort);
        command.add("--out");
        command.add(dir.resolve("run").toString());
        run = new ProcessBuilder(command).redirectErrorStream(true).start();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    runOutput.append(line).append('\n');
                }
            } catch (final java.io.IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    private void awaitFirstVerdict() throws InterruptedException {
        awaitOutput("\nPASS ");
    }

    private void awaitOutput(final String text) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!runOutput.toString().contains(text)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no '" + text.strip() + "' in the run's output:\n" + runOutput);
            }
            Thread.sleep(20);
        }
    }

    static boolean exists(final Path file) {
        return Files.exists(file);
    }
}

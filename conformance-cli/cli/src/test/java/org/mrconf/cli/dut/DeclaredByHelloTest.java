package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.cli.MetaroceCommand;

/**
 * Spec clause 12.1.5 on the tester's side: without a declaration file, what applies is decided from the device's
 * {@code hello}, not from the reference's claims. A soft DUT with one UDP socket cannot re-path, so its hello does not
 * claim multipath: the multipath case must then be NOT_APPLICABLE, where the reference's own profile would have run
 * (and failed) it; the same soft DUT with its socket pool claims multipath and the case runs.
 */
class DeclaredByHelloTest {
    @TempDir
    Path dir;

    private Process dut;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @AfterEach
    void stop() throws Exception {
        if (dut != null) {
            DeviceProcesses.stop(dut);
        }
    }

    @Test
    @Timeout(120)
    void shouldJudgeADeviceWithoutAProfileFileByItsHello() throws Exception {
        final String target = startSoftDut("--entropy-ports", "1");

        final int exit = run(
                "run",
                "--dut",
                target,
                "--clause",
                "3.1.3",
                "--out",
                dir.resolve("one").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .contains("Declarations: from the device's hello (no declaration file given, spec clause 12.1.5)")
                .containsPattern("(?m)^NOT_APPLICABLE +3\\.1\\.3 +PathsAndStreamsCase\\.multipathDeviceHasEightPaths$")
                .contains("'multipath', which the device does not claim");
    }

    @Test
    @Timeout(120)
    void shouldRunWhatTheHelloClaims() throws Exception {
        final String target = startSoftDut();

        final int exit = run(
                "run",
                "--dut",
                target,
                "--clause",
                "3.1.3",
                "--out",
                dir.resolve("pool").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^PASS +3\\.1\\.3 +PathsAndStreamsCase\\.multipathDeviceHasEightPaths$");
    }

    private String startSoftDut(final String... extra) throws Exception {
        final int udpPort = DeviceProcesses.freePort();
        final int controlPort = DeviceProcesses.freePort();
        final List<String> args = new java.util.ArrayList<>(List.of(
                "--bind",
                "127.0.0.1",
                "--port",
                String.valueOf(udpPort),
                "--control-port",
                String.valueOf(controlPort)));
        args.addAll(List.of(extra));
        dut = DeviceProcesses.startSoftDut(List.of(), args.toArray(String[]::new));
        DeviceProcesses.awaitListening(dut, new InetSocketAddress("127.0.0.1", controlPort));
        return "udp://127.0.0.1:" + udpPort + "?control=" + controlPort;
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

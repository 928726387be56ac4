package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;

/**
 * {@code metaroce dut check} against a soft DUT in this JVM (loopback UDP, a token required, an MTU of 1500): each
 * misconfiguration a vendor makes first gives its own actionable message.
 */
class DutCheckTest {
    private static final String TOKEN = "check-token-0123456789";
    private static SoftDut dut;

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void startSoftDut() throws Exception {
        dut = SoftDut.start(SoftDutOptions.builder()
                .bindAddress(InetAddress.getLoopbackAddress())
                .udpPort(0)
                .controlPort(0)
                .token(TOKEN)
                .mtu(1500)
                .build());
    }

    @AfterAll
    static void stopSoftDut() {
        dut.close();
    }

    @Test
    @Timeout(60)
    void shouldFindAReadyDevice() throws Exception {
        final int exit = check(profile(dut.udpPort(), dut.controlPort(), TOKEN, 1500));

        assertThat(exit).as("%s", out).isZero();
        assertThat(out.toString())
                .contains("ok    hello:", "token accepted", "ok    PROBE answered", "ok    MTU: a WRITE of 1500 bytes")
                .contains("Ready for ./metaroce run");
    }

    @Test
    @Timeout(60)
    void shouldSayWrongPortWhenNothingListens() throws Exception {
        final int exit = check(profile(dut.udpPort(), unusedPort(), TOKEN, 1500));

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString()).contains("FAIL  wrong port: nothing listens on 127.0.0.1:");
    }

    @Test
    @Timeout(60)
    void shouldSayTokenRefusedForAMissingOrWrongToken() throws Exception {
        assertThat(check(profile(dut.udpPort(), dut.controlPort(), null, 1500))).isEqualTo(1);
        assertThat(out.toString()).contains("FAIL  token refused: the agent requires a token; set control.token");

        assertThat(check(profile(dut.udpPort(), dut.controlPort(), "wrong-token-9876543210", 1500)))
                .isEqualTo(1);
        assertThat(out.toString()).contains("FAIL  token refused: the agent rejected the profile's control.token");
    }

    @Test
    @Timeout(60)
    void shouldSayNoAnswerToAProbeForAWrongMetaRoceAddress() throws Exception {
        final int exit = check(profile(unusedPort(), dut.controlPort(), TOKEN, 1500));

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString())
                .contains("FAIL  wrong port: the device's hello says it speaks MetaRoCE on UDP port " + dut.udpPort())
                .contains("FAIL  no answer to a PROBE within 2000 ms");
    }

    @Test
    @Timeout(60)
    void shouldSayMtuMismatchWhenTheProfileDeclaresMoreThanTheDeviceTakes() throws Exception {
        final int exit = check(profile(dut.udpPort(), dut.controlPort(), TOKEN, 4176));

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString())
                .contains("FAIL  MTU mismatch: the profile's parameters.mtu is 4176 but the device's hello says its"
                        + " limit is 1500");
    }

    @Test
    @Timeout(60)
    void shouldSayVersionSkewForAnAgentOfAnotherProtocolVersion() throws Exception {
        try (ServerSocket agent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final Thread answering = new Thread(() -> answerUnsupportedVersion(agent));
            answering.setDaemon(true);
            answering.start();

            final int exit = check(profile(dut.udpPort(), agent.getLocalPort(), null, 1500));

            assertThat(exit).isEqualTo(1);
            assertThat(out.toString())
                    .contains("FAIL  version skew: the agent does not speak DUT control protocol version 1");
        }
    }

    @Test
    void shouldRefuseABadTargetWithExitCodeTwo() {
        final int exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("dut", "check", "--dut", dir.resolve("missing.json").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("missing.json").doesNotContain("\tat ");
    }

    /** Answers every request with the protocol's unsupported_version error, as an agent of another version would. */
    private static void answerUnsupportedVersion(final ServerSocket agent) {
        final Pattern id = Pattern.compile("\"id\"\\s*:\\s*(\"[^\"]*\"|[0-9]+)");
        try (Socket socket = agent.accept();
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
            final OutputStream response = socket.getOutputStream();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                final Matcher m = id.matcher(line);
                final String requestId = m.find() ? m.group(1) : "null";
                response.write(("{\"v\":2,\"id\":" + requestId + ",\"ok\":false,\"error\":{\"code\":"
                                + "\"unsupported_version\",\"message\":\"this agent speaks version 2\"}}\n")
                        .getBytes(StandardCharsets.UTF_8));
                response.flush();
            }
        } catch (final java.io.IOException ignored) {
            // the check closed the connection
        }
    }

    private Path profile(final int udpPort, final int controlPort, final String token, final int mtu) throws Exception {
        final String template = ProfileCommand.template();
        final String control = "\"host\": \"127.0.0.1\",\n    \"port\": " + controlPort
                + (token == null ? "" : ",\n    \"token\": \"" + token + "\"");
        final String json = template.replace("\"udpPort\": 4796", "\"udpPort\": " + udpPort)
                .replace("\"host\": \"127.0.0.1\",\n    \"port\": 4797", control)
                .replace("\"mtu\": 4176,\n    \"paths\"", "\"mtu\": " + mtu + ",\n    \"paths\"");
        assertThat(json).contains("\"port\": " + controlPort);
        final Path file = Files.createTempFile(dir, "nic", ".json");
        Files.writeString(file, json);
        return file;
    }

    private int check(final Path profile) {
        out.getBuffer().setLength(0);
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("dut", "check", "--dut", profile.toString());
    }

    private static int unusedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}

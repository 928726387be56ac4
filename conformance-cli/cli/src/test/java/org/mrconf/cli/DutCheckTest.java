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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.devices.ControlErrorTable;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;

/**
 * {@code metaroce dut check} against a soft DUT in this JVM (loopback UDP, a token required, an MTU of 1500): each
 * misconfiguration a vendor makes first gives its own actionable message, and an agent whose error answers differ from
 * the control document's error table is named row by row.
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

    /**
     * The rows of the control document's error table that the reference agent answers otherwise: none. (Until open
     * point 68 was applied to {@code RegionTable.register}, a wrapping {@code register_region} named
     * {@code args.address}; a row listed here makes the tests expect exit 1 with exactly these rows differing.)
     */
    private static final List<String> REFERENCE_DIFFERS = List.of();

    @Test
    @Timeout(60)
    void shouldFindAReadyDevice() throws Exception {
        final int exit = check(profile(dut.udpPort(), dut.controlPort(), TOKEN, 1500));

        assertThat(exit).as("%s", out).isEqualTo(REFERENCE_DIFFERS.isEmpty() ? 0 : 1);
        assertThat(out.toString())
                .contains("ok    hello:", "token accepted", "ok    PROBE answered", "ok    MTU: a WRITE of 1500 bytes")
                .contains(
                        REFERENCE_DIFFERS.isEmpty()
                                ? "Ready for ./metaroce run"
                                : REFERENCE_DIFFERS.size() + " problem(s)");
        assertThat(differingRows()).containsExactlyInAnyOrderElementsOf(REFERENCE_DIFFERS);
        assertThat(out.toString())
                .contains(
                        "ok    agent error table: a line over 1 MiB: request_too_large",
                        "ok    agent error table: a wrong token, and v 2: unauthorized",
                        "ok    agent error table: post_read of 1 byte at the region's end: invalid_argument on"
                                + " args.length")
                .contains("note  agent error table: not sent, the device claims the read profile: post_read on a"
                        + " device without the read profile, with bad arguments")
                .containsOnlyOnce("not sent");
    }

    @Test
    @Timeout(60)
    void shouldSendEveryRowOfTheErrorTableToTheEmbeddedReference() {
        out.getBuffer().setLength(0);
        final int exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("dut", "check", "--dut", "reference");

        assertThat(exit).as("%s", out).isEqualTo(REFERENCE_DIFFERS.isEmpty() ? 0 : 1);
        assertThat(differingRows()).containsExactlyInAnyOrderElementsOf(REFERENCE_DIFFERS);
        // Every row is either answered as the document says, differs, or is named in a note saying why it was not
        // sent: the 1 MiB line (no line limit in process), the two of a token (the embedded has none), and the one of
        // a device without the read profile.
        final String printed = out.toString();
        final List<String> unaccounted = ControlErrorTable.rows().stream()
                .map(ControlErrorTable.Row::name)
                .filter(name -> !printed.contains("ok    agent error table: " + name + ":")
                        && !REFERENCE_DIFFERS.contains(name)
                        && printed.lines()
                                .filter(line -> line.startsWith("  note  agent error table: not sent"))
                                .noneMatch(line -> line.endsWith(name) || line.contains(name + ";")))
                .toList();
        assertThat(unaccounted).as("%s", printed).isEmpty();
        assertThat(printed.lines().filter(line -> line.startsWith("  note  agent error table: not sent")))
                .as("rows not sent")
                .hasSize(3);
        assertThat(out.toString())
                .contains("note  agent error table: not sent, the agent is in this process: no 1 MiB line limit: a"
                        + " line over 1 MiB")
                .contains("ok    agent error table: register_region with access [\"LOCAL_WRITE\",\"BOGUS\"]:"
                        + " invalid_argument on args.access[1]")
                .contains("ok    agent error table: write_region of empty data at the region's end: success")
                .contains("ok    agent error table: create_connection with a localId in use: conflict on args.localId");
    }

    @Test
    @Timeout(60)
    void shouldNameTheRowWhoseAnswerDiffersFromTheDocument() throws Exception {
        try (ServerSocket agent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            final Thread serving = new Thread(() -> forwardRewritingUnknownOp(agent));
            serving.setDaemon(true);
            serving.start();

            final int exit = check(profile(dut.udpPort(), agent.getLocalPort(), TOKEN, 1500));

            assertThat(exit).isEqualTo(1);
            assertThat(out.toString())
                    .contains(
                            "FAIL  agent error table: an unknown op DIFFERS from docs/dut-control-protocol.md"
                                    + " (section 2, Error codes): expected unknown_op, got invalid_request on op; fix the agent")
                    .contains("ok    agent error table: no op: invalid_request on op")
                    .contains("ok    PROBE answered");
            assertThat(differingRows())
                    .containsAll(REFERENCE_DIFFERS)
                    .contains("an unknown op", "an unknown op with bad arguments")
                    .hasSize(REFERENCE_DIFFERS.size() + 2);
        }
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

    /**
     * An agent that is the soft DUT's, but for one answer: it says {@code invalid_request} where the document says
     * {@code unknown_op}. It frames lines as section 1 says (1 MiB), and serves each client on a thread of its own.
     */
    private static void forwardRewritingUnknownOp(final ServerSocket agent) {
        while (!agent.isClosed()) {
            final Socket socket;
            try {
                socket = agent.accept();
            } catch (final java.io.IOException e) {
                return;
            }
            final Thread client = new Thread(() -> {
                try (socket;
                        BufferedReader in = new BufferedReader(
                                new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))) {
                    final OutputStream response = socket.getOutputStream();
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        final String answer = line.getBytes(StandardCharsets.UTF_8).length + 1 > 1 << 20
                                ? "{\"v\":1,\"id\":null,\"ok\":false,\"error\":{\"code\":\"request_too_large\","
                                        + "\"message\":\"over 1 MiB\"}}"
                                : dut.control(line).replace("\"code\":\"unknown_op\"", "\"code\":\"invalid_request\"");
                        response.write((answer + "\n").getBytes(StandardCharsets.UTF_8));
                        response.flush();
                    }
                } catch (final java.io.IOException ignored) {
                    // the check closed the connection
                }
            });
            client.setDaemon(true);
            client.start();
        }
    }

    /** The rows the last check reported as differing from the control document. */
    private List<String> differingRows() {
        final Pattern differs = Pattern.compile("FAIL  agent error table: (.*) DIFFERS from ");
        return out.toString()
                .lines()
                .map(differs::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .toList();
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
        final String template = DeclarationCommand.template();
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

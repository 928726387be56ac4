package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mrconf.agent.Requests.args;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.agent.NdjsonClient;
import org.mrconf.agent.Requests;

/** Starting, stopping and signals: a closed soft DUT has no thread and no socket left. */
class SoftDutLifecycleTest {
    private static final long PATIENCE_S = 60;
    private static final int PATHS = 8;

    @Test
    void shouldStopTheLoopAndReleaseEveryPortOnClose() throws Exception {
        final SoftDut dut =
                SoftDut.start(SoftDutOptions.builder().udpPort(0).controlPort(0).build());
        final List<Integer> entropyPorts = new ArrayList<>();
        try (NdjsonClient client = new NdjsonClient(dut.controlPort())) {
            client.ok(
                            "create_connection",
                            args(
                                    "localId",
                                    1,
                                    "peerId",
                                    2,
                                    "peerAddress",
                                    "127.0.0.1",
                                    "peerPort",
                                    9,
                                    "paths",
                                    PATHS,
                                    "streams",
                                    1))
                    .get("entropy")
                    .forEach(port -> entropyPorts.add(port.asInt()));
        }
        assertThat(dut.isRunning()).isTrue();

        dut.close();
        dut.close();

        assertThat(dut.isRunning()).isFalse();
        assertThat(Thread.getAllStackTraces().keySet())
                .noneMatch(t -> t.getName().equals("mrconf-softdut-" + dut.udpPort()));
        assertUdpPortFree(dut.udpPort());
        entropyPorts.forEach(SoftDutLifecycleTest::assertUdpPortFree);
        assertTcpPortFree(dut.controlPort() == -1 ? 0 : dut.controlPort());
        assertThat(Requests.parse(dut.control(Requests.line(1, "hello", args())))
                        .at("/error/code")
                        .asText())
                .isEqualTo("internal");
    }

    @Test
    void shouldAnswerAWaitingPollWhenClosing() throws Exception {
        final SoftDut dut = SoftDut.inMemory(SoftDutOptions.builder().build(), (p, d, dp, sp, e) -> {});
        final CompletableFuture<String> poll =
                dut.submit(Requests.line(1, "poll_completions", args("max", 1, "waitMs", 10_000)));
        assertThat(Requests.parse(dut.control(Requests.line(2, "hello", args())))
                        .get("ok")
                        .asBoolean())
                .isTrue();

        dut.close();

        final JsonNode answer = Requests.parse(poll.get(PATIENCE_S, TimeUnit.SECONDS));
        assertThat(answer.get("ok").asBoolean()).isTrue();
        assertThat(answer.get("id").asInt()).isEqualTo(1);
    }

    @Test
    void shouldReturnFromRunUntilSignalWhenClosed() throws Exception {
        final SoftDut dut = SoftDut.start(
                SoftDutOptions.builder().udpPort(0).controlPort(-1).build());
        final Thread runner = new Thread(dut::runUntilSignal, "runner");
        runner.start();

        dut.close();
        runner.join(PATIENCE_S * 1000);

        assertThat(runner.isAlive()).isFalse();
        assertThat(dut.controlPort()).isEqualTo(-1);
    }

    @Test
    void shouldStopCleanlyOnSigterm(@TempDir final Path dir) throws Exception {
        final Path log = dir.resolve("dut.log");
        final String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        final Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        classpath,
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                        SoftDutMain.class.getName())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            final Matcher listening = Pattern.compile("listening udp=(\\d+) control=(\\d+)")
                    .matcher(awaitLine(log, process, "listening"));
            assertThat(listening.find()).isTrue();
            try (NdjsonClient client = new NdjsonClient(Integer.parseInt(listening.group(2)))) {
                client.ok("hello", args());
            }

            process.destroy();

            assertThat(process.waitFor(PATIENCE_S, TimeUnit.SECONDS)).isTrue();
            assertThat(awaitLine(log, process, "soft DUT on udp port"))
                    .as("the shutdown hook closed the DUT")
                    .endsWith("stopped; its sockets are released");
            assertThat(process.exitValue())
                    .as("killed by SIGTERM after the hooks ran")
                    .isIn(0, 143);
            assertUdpPortFree(Integer.parseInt(listening.group(1)));
            assertTcpPortFree(Integer.parseInt(listening.group(2)));
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void shouldRefuseToStartOffLoopbackWithoutATokenBeforeBindingAnything() throws Exception {
        final InetAddress offLoopback = InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 33});
        final SoftDutOptions options = SoftDutOptions.builder()
                .bindAddress(offLoopback)
                .udpPort(0)
                .controlPort(0)
                .build();

        assertThatThrownBy(() -> SoftDut.start(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token");
        assertThatThrownBy(() -> SoftDutOptions.builder().entropyPorts(0).build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SoftDutOptions.builder().udpPort(65536).build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The first line of the process's output that contains {@code text}, waiting while it runs. */
    private static String awaitLine(final Path log, final Process process, final String text) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_S);
        while (System.nanoTime() - deadline < 0) {
            final boolean exited = !process.isAlive();
            final List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            for (final String line : lines) {
                if (line.contains(text)) {
                    return line;
                }
            }
            if (exited) {
                throw new AssertionError("no line with '" + text + "' in:\n" + String.join("\n", lines));
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line with '" + text + "' within " + PATIENCE_S + " s");
    }

    private static void assertUdpPortFree(final int port) {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (final java.io.IOException e) {
            throw new AssertionError("UDP port " + port + " is still bound", e);
        }
    }

    private static void assertTcpPortFree(final int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (final java.io.IOException e) {
            throw new AssertionError("TCP port " + port + " is still bound", e);
        }
    }
}

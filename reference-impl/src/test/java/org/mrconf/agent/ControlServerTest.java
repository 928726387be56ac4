package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mrconf.agent.Requests.args;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/** NDJSON framing, limits and robustness of the control server, on loopback with a real agent. */
class ControlServerTest {
    private static final int LIMIT = ControlServer.MAX_LINE_BYTES;
    private static final String HELLO = "{\"v\":1,\"id\":1,\"op\":\"hello\"}";

    private ControlServer server;

    @BeforeEach
    void setUp() throws Exception {
        final Endpoint endpoint = new Endpoint(EndpointConfig.defaults(), (d, s, e, b, o, l) -> {}, NanoClock.system());
        final ControlAgent agent =
                new ControlAgent(endpoint, new MapPeers(), AgentConfig.builder().build());
        // One lock stands in for the endpoint thread: the agent sees one caller at a time.
        server = ControlServer.start(InetAddress.getLoopbackAddress(), 0, null, line -> {
            synchronized (agent) {
                return CompletableFuture.completedFuture(agent.handle(line));
            }
        });
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    @Test
    void shouldSkipALineOverTheLimitAndServeTheNextRequest() {
        try (NdjsonClient client = new NdjsonClient(server.port())) {
            final byte[] huge = new byte[2 * LIMIT + 1];
            Arrays.fill(huge, (byte) 'x');
            huge[huge.length - 1] = '\n';
            client.send(huge);

            final JsonNode tooLarge = client.readResponse();
            assertThat(tooLarge.at("/error/code").asText()).isEqualTo("request_too_large");
            assertThat(tooLarge.get("id").isNull()).isTrue();
            assertThat(client.ok("hello", args()).get("protocol").asInt()).isEqualTo(1);
        }
    }

    @Test
    void shouldAcceptALineOfExactlyOneMebibyteAndRefuseOneByteMore() {
        try (NdjsonClient client = new NdjsonClient(server.port())) {
            client.send(padded(LIMIT));
            assertThat(client.readResponse().get("ok").asBoolean()).isTrue();

            client.send(padded(LIMIT + 1));
            assertThat(client.readResponse().at("/error/code").asText()).isEqualTo("request_too_large");
            client.sendLine(HELLO);
            assertThat(client.readResponse().get("ok").asBoolean()).isTrue();
        }
    }

    @Test
    void shouldAnswerEveryGarbageLineAndKeepServing() {
        try (NdjsonClient client = new NdjsonClient(server.port())) {
            client.send(new byte[] {(byte) 0xC3, (byte) 0x28, '\n'});
            assertThat(client.readResponse().at("/error/code").asText()).isEqualTo("parse_error");
            client.send("\n{\"v\":1}\r\n[]\n\u0000\u0001\n".getBytes(StandardCharsets.UTF_8));
            final List<String> codes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                codes.add(client.readResponse().at("/error/code").asText());
            }
            assertThat(codes).containsExactly("parse_error", "invalid_request", "parse_error", "parse_error");
            assertThat(client.ok("hello", args())).isNotNull();
        }
    }

    @Test
    void shouldAnswerPipelinedRequestsInOrder() {
        try (NdjsonClient client = new NdjsonClient(server.port())) {
            final StringBuilder burst = new StringBuilder();
            for (int id = 1; id <= 50; id++) {
                burst.append("{\"v\":1,\"id\":").append(id).append(",\"op\":\"read_counters\"}\n");
            }
            client.send(burst.toString().getBytes(StandardCharsets.UTF_8));

            for (int id = 1; id <= 50; id++) {
                assertThat(client.readResponse().get("id").asInt()).isEqualTo(id);
            }
        }
    }

    @Test
    void shouldServeManyClientsAtOnceAndSurviveOnesThatLeaveMidLine() throws Exception {
        try (NdjsonClient rude = new NdjsonClient(server.port())) {
            rude.send("{\"v\":1,\"id\":1,\"op\":\"hel".getBytes(StandardCharsets.UTF_8));
        }
        final ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            final List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < 32; c++) {
                results.add(pool.submit(() -> {
                    try (NdjsonClient client = new NdjsonClient(server.port())) {
                        int answered = 0;
                        for (int i = 0; i < 20; i++) {
                            client.ok("read_counters", args());
                            answered++;
                        }
                        return answered;
                    }
                }));
            }
            for (final Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(20);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseToStartOffLoopbackWithoutAToken() throws Exception {
        final InetAddress offLoopback = InetAddress.getByAddress(new byte[] {(byte) 203, 0, 113, 5});

        assertThatThrownBy(() -> ControlServer.start(offLoopback, 0, null, line -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token");
        assertThatThrownBy(() -> ControlServer.start(offLoopback, 0, "too-short", line -> null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16");
        assertThatThrownBy(() -> ControlServer.start(InetAddress.getByName("0.0.0.0"), 0, null, line -> null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldReleaseItsPortOnClose() throws Exception {
        final int port = server.port();
        try (NdjsonClient client = new NdjsonClient(port)) {
            client.ok("hello", args());
            server.close();
            assertThat(client.readResponse()).as("the server hung up").isNull();
        }
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }
    }

    @Test
    void shouldServeANewClientWhileIdleConnectionsHoldEverySlot() throws Exception {
        final List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < ControlServer.MAX_CLIENTS; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
            }
            Thread.sleep(200); // let the server accept them all

            try (NdjsonClient client = new NdjsonClient(server.port())) {
                assertThat(client.ok("hello", args()).get("protocol").asInt()).isEqualTo(1);
            }
        } finally {
            for (final Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void shouldKeepATrustedClientWhenNewcomersFillEverySlot() throws Exception {
        final List<Socket> idle = new ArrayList<>();
        try (NdjsonClient trusted = new NdjsonClient(server.port())) {
            trusted.ok("hello", args());
            for (int i = 0; i < 2 * ControlServer.MAX_CLIENTS; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
            }
            Thread.sleep(200);

            assertThat(trusted.ok("read_counters", args())).isNotNull();
        } finally {
            for (final Socket socket : idle) {
                socket.close();
            }
        }
    }

    /**
     * Hardening finding 7: clients that each had one request answered and then sat idle held every slot, and each
     * newcomer was refused for as long as they stayed (up to the 10-minute idle timeout per gap). A newcomer now
     * displaces the one silent longest. Time is the injected clock's; nothing here waits on the wall clock.
     */
    @Test
    void shouldServeANewcomerWhenEverySlotIsHeldByAnsweredClientsGoneIdle() throws Exception {
        final java.util.concurrent.atomic.AtomicLong nowNs = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
        final List<NdjsonClient> idle = new ArrayList<>();
        try (ControlServer capped = stubServer(new ControlServer.Limits(4, 10_000, 600_000, 30_000), nowNs::get)) {
            for (int i = 0; i < 4; i++) {
                final NdjsonClient client = new NdjsonClient(capped.port());
                idle.add(client);
                client.sendLine(HELLO);
                assertThat(client.readResponse()).as("client %d answered", i).isNotNull();
                nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(1)); // client 0 is the one silent longest
            }
            nowNs.addAndGet(TimeUnit.MINUTES.toNanos(1));

            try (NdjsonClient newcomer = new NdjsonClient(capped.port())) {
                assertThat(answers(newcomer)).as("the newcomer is served").isTrue();
            }
            assertThat(isClosed(idle.get(0)))
                    .as("the client silent longest was disconnected")
                    .isTrue();
            for (int i = 1; i < 4; i++) {
                assertThat(answers(idle.get(i))).as("client %d kept", i).isTrue();
            }
        } finally {
            idle.forEach(NdjsonClient::close);
        }
    }

    /** Clients that were answered only a moment ago keep their slots: a newcomer at the cap is refused. */
    @Test
    void shouldKeepAnsweredClientsThatSpokeRecentlyWhenANewcomerArrivesAtTheCap() throws Exception {
        final java.util.concurrent.atomic.AtomicLong nowNs = new java.util.concurrent.atomic.AtomicLong(1_000_000_000L);
        final List<NdjsonClient> busy = new ArrayList<>();
        try (ControlServer capped = stubServer(new ControlServer.Limits(4, 10_000, 600_000, 30_000), nowNs::get)) {
            for (int i = 0; i < 4; i++) {
                final NdjsonClient client = new NdjsonClient(capped.port());
                busy.add(client);
                client.sendLine(HELLO);
                assertThat(client.readResponse()).isNotNull();
            }
            nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));

            try (NdjsonClient newcomer = new NdjsonClient(capped.port())) {
                assertThat(answers(newcomer))
                        .as("refused: every client spoke 100 ms ago")
                        .isFalse();
            }
            for (final NdjsonClient client : busy) {
                assertThat(answers(client)).isTrue();
            }
        } finally {
            busy.forEach(NdjsonClient::close);
        }
    }

    @Test
    void shouldDisconnectClientsThatStaySilent() throws Exception {
        try (ControlServer quick = stubServer(new ControlServer.Limits(4, 300, 600, 10_000));
                Socket silent = new Socket(InetAddress.getLoopbackAddress(), quick.port())) {
            silent.setSoTimeout(10_000);
            final long start = System.nanoTime();
            assertThat(silent.getInputStream().read())
                    .as("closed by the server")
                    .isEqualTo(-1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);

            final NdjsonClient talker = new NdjsonClient(quick.port()); // after the wait, or it is silent too
            talker.sendLine(HELLO);
            assertThat(talker.readResponse()).isNotNull();
            assertThat(talker.readResponse())
                    .as("closed after the idle timeout")
                    .isNull();
            talker.close();
        }
    }

    @Test
    void shouldDisconnectAClientThatTricklesALineWithinTheLineDeadlineAndServeOthers() throws Exception {
        // Each byte comes well inside the idle timeouts, so only a deadline on the whole line can end it.
        try (ControlServer quick = stubServer(new ControlServer.Limits(4, 2_000, 2_000, 1_000));
                Socket trickler = new Socket(InetAddress.getLoopbackAddress(), quick.port())) {
            final long startNs = System.nanoTime();
            final boolean disconnected = trickleUntilDisconnected(trickler, HELLO, 100, 8_000);
            final long heldMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);

            assertThat(disconnected).as("the trickler was disconnected").isTrue();
            // The 1 s deadline, with room for a loaded machine; without one, the trickler would hold on for all 8 s.
            assertThat(heldMs).as("held the connection for ms").isLessThan(5_000);
            try (NdjsonClient normal = new NdjsonClient(quick.port())) {
                normal.sendLine(HELLO);
                assertThat(normal.readResponse().get("ok").asBoolean()).isTrue();
            }
        }
    }

    @Test
    void shouldGiveEveryLineItsOwnDeadline() throws Exception {
        try (ControlServer quick = stubServer(new ControlServer.Limits(4, 2_000, 2_000, 2_000));
                NdjsonClient slow = new NdjsonClient(quick.port())) {
            final byte[] hello = (HELLO + "\n").getBytes(StandardCharsets.UTF_8);
            // Eight lines, each in two halves 300 ms apart: 2.4 s in all, each line well within its 2 s.
            for (int i = 0; i < 8; i++) {
                slow.send(Arrays.copyOfRange(hello, 0, 10));
                Thread.sleep(300);
                slow.send(Arrays.copyOfRange(hello, 10, hello.length));
                assertThat(slow.readResponse()).as("answer to line %d", i).isNotNull();
            }
        }
    }

    /**
     * Sends {@code line}'s bytes one at a time, {@code intervalMs} apart and without the newline, until the server
     * closes the connection (true) or {@code forMs} pass (false).
     */
    private static boolean trickleUntilDisconnected(
            final Socket socket, final String line, final int intervalMs, final int forMs) throws Exception {
        socket.setSoTimeout(intervalMs);
        final byte[] bytes = (line + " ".repeat(1000)).getBytes(StandardCharsets.UTF_8);
        final long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(forMs);
        for (int i = 0; System.nanoTime() - endNs < 0; i = (i + 1) % (bytes.length - 1)) {
            try {
                socket.getOutputStream().write(bytes[i]);
                socket.getOutputStream().flush();
                if (socket.getInputStream().read() < 0) {
                    return true;
                }
            } catch (final java.net.SocketTimeoutException e) {
                // Nothing to read yet: the connection is still open.
            } catch (final java.io.IOException e) {
                return true; // reset by the server
            }
        }
        return false;
    }

    /** Whether the client gets an answer to a hello; false if the server closed or reset its connection. */
    private static boolean answers(final NdjsonClient client) {
        try {
            client.sendLine(HELLO);
            return client.readResponse() != null;
        } catch (final java.io.UncheckedIOException e) {
            return false;
        }
    }

    /** Whether the server has closed (or reset) the client's connection, with nothing more to read. */
    private static boolean isClosed(final NdjsonClient client) {
        try {
            return client.readResponse() == null;
        } catch (final java.io.UncheckedIOException e) {
            return true;
        }
    }

    /** A server on loopback with these limits whose handler answers every line with a success. */
    private static ControlServer stubServer(final ControlServer.Limits limits) throws java.io.IOException {
        return stubServer(limits, NanoClock.system());
    }

    /** As {@link #stubServer(ControlServer.Limits)}, measuring clients' silence with {@code clock}. */
    private static ControlServer stubServer(final ControlServer.Limits limits, final NanoClock clock)
            throws java.io.IOException {
        return ControlServer.start(
                InetAddress.getLoopbackAddress(),
                0,
                null,
                line -> CompletableFuture.completedFuture("{\"ok\":true}"),
                limits,
                clock);
    }

    /** A valid hello padded with spaces to {@code totalBytes}, newline included. */
    private static byte[] padded(final int totalBytes) {
        final byte[] line = new byte[totalBytes];
        final byte[] head = HELLO.substring(0, HELLO.length() - 1).getBytes(StandardCharsets.US_ASCII);
        Arrays.fill(line, (byte) ' ');
        System.arraycopy(head, 0, line, 0, head.length);
        line[totalBytes - 2] = '}';
        line[totalBytes - 1] = '\n';
        return line;
    }
}

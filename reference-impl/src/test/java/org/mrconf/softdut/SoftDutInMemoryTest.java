package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mrconf.agent.Requests.access;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.agent.Requests;
import org.mrconf.net.EcnCodepoint;

/** Two in-memory soft DUTs wired through their sinks, as the CLI's embedded mode wires a tester. */
class SoftDutInMemoryTest {
    private static final InetAddress ADDRESS_A = address(10, 0, 0, 1);
    private static final InetAddress ADDRESS_B = address(10, 0, 0, 2);
    private static final InetAddress STRANGER = address(10, 0, 0, 99);
    private static final long BASE = 0x4000_0000L;
    private static final int LENGTH = 200_000;
    private static final long PATIENCE_MS = 60_000;

    private final Set<Integer> sourcePortsFromA = ConcurrentHashMap.newKeySet();
    private final AtomicReference<byte[]> firstPacketFromA = new AtomicReference<>();
    private volatile boolean markCe;
    private SoftDut a;
    private SoftDut b;
    private long nextId = 1;

    @BeforeEach
    void setUp() {
        final SoftDut[] peer = new SoftDut[1];
        a = SoftDut.inMemory(
                SoftDutOptions.builder().bindAddress(ADDRESS_A).build(),
                (packet, destination, port, sourcePort, ecn) -> {
                    assertThat(destination).isEqualTo(ADDRESS_B);
                    sourcePortsFromA.add(sourcePort);
                    firstPacketFromA.compareAndSet(null, packet);
                    peer[0].deliver(
                            packet,
                            ADDRESS_A,
                            sourcePort,
                            markCe && EcnCodepoint.isCapable(ecn) ? EcnCodepoint.CE : ecn);
                });
        b = SoftDut.inMemory(
                SoftDutOptions.builder().bindAddress(ADDRESS_B).build(),
                (packet, destination, port, sourcePort, ecn) -> a.deliver(packet, ADDRESS_B, sourcePort, ecn));
        peer[0] = b;
    }

    @AfterEach
    void tearDown() {
        a.close();
        b.close();
    }

    @Test
    void shouldCarryAWriteThroughTheSinksWithEntropyAsSourcePortAndEcnBothWays() {
        final List<Integer> entropy = new ArrayList<>();
        ok(
                        a,
                        "create_connection",
                        args(
                                "localId",
                                1,
                                "peerId",
                                2,
                                "peerAddress",
                                "10.0.0.2",
                                "peerPort",
                                4796,
                                "paths",
                                4,
                                "streams",
                                1))
                .get("entropy")
                .forEach(port -> entropy.add(port.asInt()));
        ok(
                b,
                "create_connection",
                args("localId", 2, "peerId", 1, "peerAddress", "10.0.0.1", "peerPort", 4796, "paths", 4, "streams", 1));
        final long keyA = register(a);
        final long keyB = register(b);
        final byte[] bytes = DutPair.pattern(LENGTH, 5);
        ok(
                a,
                "write_region",
                args(
                        "key",
                        keyA,
                        "address",
                        hex(BASE),
                        "data",
                        Base64.getEncoder().encodeToString(bytes)));
        markCe = true;

        ok(
                a,
                "post_write",
                args(
                        "connection",
                        1,
                        "stream",
                        0,
                        "key",
                        keyA,
                        "address",
                        hex(BASE),
                        "length",
                        LENGTH,
                        "remoteAddress",
                        hex(BASE),
                        "remoteKey",
                        keyB,
                        "wrId",
                        9));

        assertThat(awaitCompletion(a).get("status").asText()).isEqualTo("SUCCESS");
        assertThat(Base64.getDecoder()
                        .decode(ok(b, "read_region", args("key", keyB, "address", hex(BASE), "length", LENGTH))
                                .get("data")
                                .asText()))
                .isEqualTo(bytes);
        // Unmapped entropy: the ports create_connection reported (later ones if a slow machine re-paths).
        assertThat(sourcePortsFromA).containsAnyElementsOf(entropy);
        assertThat(counters(b).get("rx_ce_marked").asLong()).isPositive();
        assertThat(ok(a, "hello", args()).at("/wire/addresses/0").asText()).isEqualTo("10.0.0.1");
    }

    @Test
    void shouldCarryWholeFramesAndDropOneWithAWrongUdpChecksum() {
        final AtomicReference<byte[]> firstFrameFromC = new AtomicReference<>();
        final SoftDut[] peer = new SoftDut[1];
        final SoftDut c = SoftDut.inMemoryFrames(
                SoftDutOptions.builder().bindAddress(ADDRESS_A).build(), frame -> {
                    firstFrameFromC.compareAndSet(null, frame.clone());
                    peer[0].deliverFrame(frame);
                });
        final SoftDut d = SoftDut.inMemoryFrames(
                SoftDutOptions.builder().bindAddress(ADDRESS_B).build(), c::deliverFrame);
        peer[0] = d;
        try {
            connectOnePath(c, d);
            final long keyC = register(c);
            final long keyD = register(d);
            ok(
                    c,
                    "post_write",
                    args(
                            "connection",
                            1,
                            "stream",
                            0,
                            "key",
                            keyC,
                            "address",
                            hex(BASE),
                            "length",
                            100,
                            "remoteAddress",
                            hex(BASE),
                            "remoteKey",
                            keyD,
                            "wrId",
                            1));
            assertThat(awaitCompletion(c).get("status").asText()).isEqualTo("SUCCESS");
            final long received = counters(d).get("rx_packets").asLong();

            final byte[] corrupt = firstFrameFromC.get().clone();
            corrupt[corrupt.length - 1] ^= 1;
            d.deliverFrame(corrupt);

            awaitCounter(d, "x_frame_udp_checksum_drops", 1);
            assertThat(counters(d).get("rx_packets").asLong()).isEqualTo(received);
            assertThatThrownBy(() -> d.deliver(new byte[20], ADDRESS_A, 1, 0))
                    .isInstanceOf(UnsupportedOperationException.class);
        } finally {
            c.close();
            d.close();
        }
    }

    @Test
    void shouldCountPacketsFromAnUnexpectedSourceOrForAnUnknownConnection() {
        connectOnePath(a, b);
        final long keyA = register(a);
        final long keyB = register(b);
        ok(
                a,
                "post_write",
                args(
                        "connection",
                        1,
                        "stream",
                        0,
                        "key",
                        keyA,
                        "address",
                        hex(BASE),
                        "length",
                        100,
                        "remoteAddress",
                        hex(BASE),
                        "remoteKey",
                        keyB,
                        "wrId",
                        1));
        awaitCompletion(a);
        final long unexpectedBefore = counters(b).get("rx_unexpected_source").asLong();

        b.deliver(firstPacketFromA.get(), STRANGER, 50000, EcnCodepoint.NOT_ECT);
        awaitCounter(b, "rx_unexpected_source", unexpectedBefore + 1);

        ok(b, "destroy_connection", args("localId", 2));
        b.deliver(firstPacketFromA.get(), ADDRESS_A, 50000, EcnCodepoint.NOT_ECT);
        awaitCounter(b, "rx_unknown_connection", 1);
    }

    @Test
    void shouldRefuseDeliverOnAUdpSoftDutAndControlFromItsOwnThread() throws Exception {
        try (SoftDut udp = SoftDut.start(
                SoftDutOptions.builder().udpPort(0).controlPort(-1).build())) {
            assertThatThrownBy(() -> udp.deliver(new byte[20], ADDRESS_A, 1, 0))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
        final AtomicReference<String> fromLoop = new AtomicReference<>();
        final SoftDut[] self = new SoftDut[1];
        self[0] = SoftDut.inMemory(
                SoftDutOptions.builder().build(),
                (packet, destination, port, sourcePort, ecn) ->
                        fromLoop.compareAndSet(null, self[0].control(Requests.line(1, "hello", args()))));
        try {
            final long key = register(self[0]);
            ok(
                    self[0],
                    "create_connection",
                    args(
                            "localId",
                            1,
                            "peerId",
                            2,
                            "peerAddress",
                            "10.0.0.2",
                            "peerPort",
                            4796,
                            "paths",
                            1,
                            "streams",
                            1));
            ok(
                    self[0],
                    "post_send",
                    args("connection", 1, "stream", 0, "key", key, "address", hex(BASE), "length", 10, "wrId", 1));
            final long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000L;
            while (fromLoop.get() == null && System.nanoTime() - deadline < 0) {
                Thread.sleep(5);
            }
            assertThat(Requests.parse(fromLoop.get()).at("/error/code").asText())
                    .isEqualTo("internal");
        } finally {
            self[0].close();
        }
    }

    private JsonNode ok(final SoftDut dut, final String op, final ObjectNode args) {
        final JsonNode response = Requests.parse(dut.control(Requests.line(nextId++, op, args)));
        assertThat(response.get("ok").asBoolean())
                .as("%s answered %s", op, response)
                .isTrue();
        return response.get("result");
    }

    /** Connection 1 at {@code a} (10.0.0.1) and connection 2 at {@code b} (10.0.0.2), peers of each other, one path. */
    private void connectOnePath(final SoftDut a, final SoftDut b) {
        ok(
                a,
                "create_connection",
                args("localId", 1, "peerId", 2, "peerAddress", "10.0.0.2", "peerPort", 4796, "paths", 1, "streams", 1));
        ok(
                b,
                "create_connection",
                args("localId", 2, "peerId", 1, "peerAddress", "10.0.0.1", "peerPort", 4796, "paths", 1, "streams", 1));
    }

    private long register(final SoftDut dut) {
        return ok(
                        dut,
                        "register_region",
                        args(
                                "address",
                                hex(BASE),
                                "length",
                                1 << 20,
                                "access",
                                access("LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ")))
                .get("key")
                .asLong();
    }

    private JsonNode awaitCompletion(final SoftDut dut) {
        final long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000L;
        while (System.nanoTime() - deadline < 0) {
            final List<JsonNode> completions =
                    Requests.completions(ok(dut, "poll_completions", args("max", 1, "waitMs", 1000)));
            if (!completions.isEmpty()) {
                return completions.get(0);
            }
        }
        throw new AssertionError("no completion within " + PATIENCE_MS + " ms");
    }

    private JsonNode counters(final SoftDut dut) {
        return ok(dut, "read_counters", args()).get("counters");
    }

    private void awaitCounter(final SoftDut dut, final String name, final long atLeast) {
        final long deadline = System.nanoTime() + PATIENCE_MS * 1_000_000L;
        long value;
        while ((value = counters(dut).get(name).asLong()) < atLeast) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        name + " is " + value + ", not yet " + atLeast + ", after " + PATIENCE_MS + " ms");
            }
            Thread.onSpinWait();
        }
    }

    private static InetAddress address(final int a, final int b, final int c, final int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (final java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;

/**
 * Memory from the wire: what a peer can make the receive side allocate with valid packets. One packet
 * per new stream id used to retain about 134 KB (rings preallocated to the declared limits), so a single
 * connection with many streams exhausted the heap. Measured with the JVM's per-thread allocation counter
 * over a bounded number of streams, and through the endpoint's state budget.
 */
class StreamStateMemoryTest {
    private static final int LOCAL = 7;
    private static final int PEER = 9;
    private static final int VICTIM = 13;
    private static final int STREAMS = 4096;
    private static final long BASE = 0x10_0000L;

    private final PacketEncoder encoder = new PacketEncoder();
    private final ByteBuffer scratch = ByteBuffer.allocate(2048);
    private long now = 1_000_000;
    private final long[] psn = new long[2];

    @BeforeEach
    void resetPsn() {
        psn[0] = 0;
        psn[1] = 0;
    }

    @Test
    void shouldRetainOnlyAFewHundredBytesPerStreamUsed() {
        final Endpoint endpoint = endpoint(EndpointConfig.defaults());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        final long before =
                threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int stream = 0; stream < STREAMS; stream++) {
            write(endpoint, region, stream, 0, 2, 0); // half a message: its stream must keep state for it
        }
        final long perStream =
                (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / STREAMS;

        assertThat(endpoint.counters().get(Counter.BYTES_PLACED)).isEqualTo(STREAMS);
        assertThat(perStream).as("bytes allocated per new stream").isLessThan(2048);
    }

    @Test
    void shouldDropCountAndKeepServingWhenTheBudgetIsSpent() {
        final long budget = 64 * 1024;
        final Endpoint endpoint =
                endpoint(EndpointConfig.builder().receiveStateBudget(budget).build());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);
        write(endpoint, region, 1, 0, 0, 1, 0); // the legitimate stream, on its own path, in use before the flood

        for (int stream = 1; stream < 512; stream++) {
            write(endpoint, region, 0, stream + 1, 0, 2, 0);
        }

        assertThat(endpoint.counters().get(Counter.RX_DROPPED_NO_STATE)).isPositive();
        assertThat(endpoint.receiveStateBytes()).isLessThanOrEqualTo(budget);
        final long placed = endpoint.counters().get(Counter.BYTES_PLACED);
        write(endpoint, region, 1, 0, 1, 1, 0);
        assertThat(endpoint.counters().get(Counter.BYTES_PLACED) - placed)
                .as("the stream that had state is still served")
                .isOne();
    }

    /**
     * Hardening finding 6: the budget was one pool for every connection, so a peer naming new stream ids on a few
     * connections spent it all and another connection's first WRITE was dropped until the flooders were destroyed.
     * Each connection now has a reserve of its own that no other connection's packets can take.
     */
    @Test
    void shouldPlaceAnotherConnectionsFirstWriteAfterAStreamIdFloodOnOtherConnections() {
        final long budget = 1 << 20;
        final Endpoint endpoint =
                endpoint(EndpointConfig.builder().receiveStateBudget(budget).build());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);
        final int[] flooders = {LOCAL, 11, 12};
        endpoint.createConnection(ConnectionConfig.of(11, PEER, 0, 1, 65536));
        endpoint.createConnection(ConnectionConfig.of(12, PEER, 0, 1, 65536));
        endpoint.createConnection(ConnectionConfig.of(VICTIM, PEER, 0, 1, 65536));

        // Far more new stream ids than the whole budget could hold, spread over three connections.
        final long[] floodPsn = new long[flooders.length];
        for (int stream = 0; stream < 20_000; stream++) {
            final int c = stream % flooders.length;
            writeOn(endpoint, region, flooders[c], floodPsn[c]++, stream / flooders.length, 0, 2, 0);
        }
        final long dropped = endpoint.counters().get(Counter.RX_DROPPED_NO_STATE);
        assertThat(dropped).as("the flood was refused, and counted").isPositive();
        assertThat(endpoint.receiveStateBytes()).isLessThanOrEqualTo(budget);

        final long placed = endpoint.counters().get(Counter.BYTES_PLACED);
        writeOn(endpoint, region, VICTIM, 0, 0, 0, 1, 0);
        writeOn(endpoint, region, VICTIM, 1, 1, 0, 2, 0); // a first packet of a longer message: it needs a tracker

        assertThat(endpoint.counters().get(Counter.BYTES_PLACED) - placed)
                .as("the other connection's first WRITEs landed")
                .isEqualTo(2);
        assertThat(endpoint.counters().get(Counter.RX_DROPPED_NO_STATE)).isEqualTo(dropped);
    }

    @Test
    void shouldGrowTheMessageRingOnDemandAndShrinkItWhenIdle() {
        final Endpoint endpoint = endpoint(EndpointConfig.defaults());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);
        final long idle = endpoint.receiveStateBytes();

        write(endpoint, region, 0, 1000, 1, 0); // far ahead: the ring grows to cover MSN 1000
        final long grown = endpoint.receiveStateBytes();
        for (int msn = 0; msn < 1000; msn++) {
            write(endpoint, region, 0, msn, 1, 0);
        }

        assertThat(grown - idle).isGreaterThan(1000 * StateBudget.MESSAGE_SLOT_BYTES);
        assertThat(endpoint.receiveStateBytes() - idle)
                .as("after every message left, the ring is back at its initial size")
                .isEqualTo(StreamReceiveState.initialCharge(
                        EndpointConfig.defaults().maxOutstandingMessages()));
    }

    @Test
    void shouldRefuseAMessageBeyondTheDeclaredLimit() {
        final Endpoint endpoint = endpoint(EndpointConfig.defaults());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);

        write(endpoint, region, 0, EndpointConfig.defaults().maxOutstandingMessages(), 1, 0);

        assertThat(endpoint.counters().get(Counter.REJECT_INVALID_REQUEST)).isOne();
        assertThat(endpoint.counters().get(Counter.BYTES_PLACED)).isZero();
    }

    @Test
    void shouldReturnTheBudgetWhenTheConnectionIsDestroyed() {
        final Endpoint endpoint = endpoint(EndpointConfig.defaults());
        final MemoryRegion region = endpoint.registerRegion(BASE, 4096, AccessFlags.ALL);
        for (int stream = 0; stream < 64; stream++) {
            write(endpoint, region, stream, 3, 2, 0);
        }
        assertThat(endpoint.receiveStateBytes()).isPositive();

        endpoint.destroyConnection(LOCAL);

        assertThat(endpoint.receiveStateBytes()).isZero();
    }

    @Test
    void shouldCreateALargeConnectionWithoutPayingForItsIdlePathsAndStreams() {
        final Endpoint endpoint =
                new Endpoint(EndpointConfig.defaults(), (dst, port, ecn, buffer, offset, length) -> {}, () -> now);
        final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        final long before =
                threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int id = 1; id <= 64; id++) {
            endpoint.createConnection(ConnectionConfig.of(id, PEER, 0, 256, 65536));
        }
        final long perConnection =
                (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / 64;

        assertThat(perConnection)
                .as("bytes per connection of 256 paths and 65,536 streams (was 2.8 MB)")
                .isLessThan(256 * 1024);
    }

    // ---------------------------------------------------------------- helpers

    private Endpoint endpoint(final EndpointConfig config) {
        final Endpoint endpoint = new Endpoint(config, (dst, port, ecn, buffer, offset, length) -> {}, () -> now);
        endpoint.createConnection(ConnectionConfig.of(LOCAL, PEER, 0, 2, 65536));
        return endpoint;
    }

    private void write(
            final Endpoint endpoint,
            final MemoryRegion region,
            final int stream,
            final long msn,
            final long length,
            final long offset) {
        write(endpoint, region, 0, stream, msn, length, offset);
    }

    /** One byte of a WRITE of {@code length} bytes on path 0 of connection {@code localId}, with PSN {@code psn}. */
    private void writeOn(
            final Endpoint endpoint,
            final MemoryRegion region,
            final int localId,
            final long psn,
            final int stream,
            final long msn,
            final long length,
            final long offset) {
        encoder.data(scratch, 0, Opcode.WRITE)
                .destinationConnectionId(localId)
                .pathId(0)
                .psn(psn)
                .streamId(stream)
                .payloadLength(1)
                .messageSequenceNumber(msn)
                .messageLength(length)
                .messageOffset(offset)
                .transmitTimestamp(now & 0xFFFF_FFFFL)
                .remoteAddress(BASE)
                .remoteKey(region.key() & 0xFFFF_FFFFL);
        final int packetLength = encoder.finishWithPayload(scratch, 0, ByteBuffer.wrap(new byte[] {1}));
        endpoint.onPacket(0, 50000, 0, scratch, 0, packetLength, now += 1000);
    }

    /** One byte of a WRITE of {@code length} bytes at offset {@code offset}, on the next PSN of its path. */
    private void write(
            final Endpoint endpoint,
            final MemoryRegion region,
            final int path,
            final int stream,
            final long msn,
            final long length,
            final long offset) {
        encoder.data(scratch, 0, Opcode.WRITE)
                .destinationConnectionId(LOCAL)
                .pathId(path)
                .psn(psn[path]++)
                .streamId(stream)
                .payloadLength(1)
                .messageSequenceNumber(msn)
                .messageLength(length)
                .messageOffset(offset)
                .transmitTimestamp(now & 0xFFFF_FFFFL)
                .remoteAddress(BASE)
                .remoteKey(region.key() & 0xFFFF_FFFFL);
        final int packetLength = encoder.finishWithPayload(scratch, 0, ByteBuffer.wrap(new byte[] {1}));
        endpoint.onPacket(0, 50000, 0, scratch, 0, packetLength, now += 1000);
    }
}

package org.mrconf.microbench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.ConnectionConfig;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The receive hot path of the reference endpoint (decode, CRC check, validate, place a 4 KiB payload,
 * update the SACK window, coalesce ACKs) against a plain copy of the same bytes, in the same run
 * (issue target: at least half the copy rate). Each invocation delivers one batch of in-order WRITE
 * packets spread over 8 paths; the connection is recreated between batches so every PSN is new.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ReceivePathBenchmark {
    static final int PAYLOAD = 4096;
    static final int BATCH = 1024;
    static final int PATHS = 8;
    static final int LOCAL_ID = 1;
    static final int PEER_ID = 2;
    static final long BASE = 0x4000_0000L;

    private Endpoint endpoint;
    private MemoryRegion region;
    private ByteBuffer packets;
    private int packetLength;
    private ByteBuffer copyTarget;
    private long nowNs;

    @Setup(Level.Trial)
    public void buildPackets() {
        final EndpointConfig config = EndpointConfig.builder()
                .mtu(20 + 8 + Opcode.WRITE.headerLength() + PAYLOAD + 4)
                .ackPolicy(8_000, 16)
                .build();
        endpoint = new Endpoint(config, (dst, port, ecn, buffer, offset, length) -> {}, () -> nowNs);
        region = endpoint.registerRegion(BASE, ByteBuffer.allocateDirect(BATCH * PAYLOAD), AccessFlags.ALL);
        copyTarget = ByteBuffer.allocateDirect(BATCH * PAYLOAD);
        packetLength = Opcode.WRITE.packetLength(PAYLOAD);
        packets = ByteBuffer.allocateDirect(BATCH * packetLength);
        final PacketEncoder encoder = new PacketEncoder();
        final byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < BATCH; i++) {
            final int offset = i * packetLength;
            java.util.Arrays.fill(payload, (byte) i);
            encoder.data(packets, offset, Opcode.WRITE)
                    .destinationConnectionId(LOCAL_ID)
                    .pathId(i % PATHS)
                    .psn(i / PATHS)
                    .streamId(0)
                    .payloadLength(PAYLOAD)
                    .messageSequenceNumber(0)
                    .messageLength((long) BATCH * PAYLOAD)
                    .messageOffset((long) i * PAYLOAD)
                    .transmitTimestamp(i)
                    .remoteAddress(BASE)
                    .remoteKey(region.key() & 0xFFFF_FFFFL);
            packets.put(offset + Opcode.WRITE.headerLength(), payload);
            encoder.finish(packets, offset, packetLength);
        }
    }

    @Setup(Level.Invocation)
    public void freshConnection() {
        if (endpoint.isConnectionUp(LOCAL_ID)) {
            endpoint.destroyConnection(LOCAL_ID);
        }
        endpoint.createConnection(ConnectionConfig.of(LOCAL_ID, PEER_ID, 1, PATHS, 1));
        // A posted receive creates the stream's state now, outside the measurement, as a long-lived stream has it.
        endpoint.postReceive(LOCAL_ID, 0, region.key(), BASE, 64, 0);
        while (endpoint.pollCompletion() != null) {
            nowNs++;
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void receiveAndPlace() {
        for (int i = 0; i < BATCH; i++) {
            endpoint.onPacket(
                    1, 49152 + (i % PATHS), EcnCodepoint.ECT_0, packets, i * packetLength, packetLength, nowNs += 100);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void plainCopy() {
        for (int i = 0; i < BATCH; i++) {
            copyTarget.put(i * PAYLOAD, packets, i * packetLength + Opcode.WRITE.headerLength(), PAYLOAD);
        }
    }

    /** Lets a test check that one batch really places every byte, so the benchmark measures real work. */
    public long bytesPlacedByOneBatch() {
        buildPackets();
        freshConnection();
        receiveAndPlace();
        return endpoint.counters().get(org.mrconf.transport.Counter.BYTES_PLACED);
    }
}

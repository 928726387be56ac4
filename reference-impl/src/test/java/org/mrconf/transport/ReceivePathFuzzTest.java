package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;

/**
 * Coverage-guided fuzzing of the endpoint's receive path with packets that pass the CRC check (the CRC
 * check would otherwise hide everything behind it). Each input is a sequence of packets from the real
 * peer's address: either structured (an opcode and header fields chosen by the fuzzer, encoded, so the
 * CRC is right) or raw mutated bytes whose CRC32C is recomputed. Invariants: nothing throws; no byte
 * outside a registered region changes (guard bytes around each region); no posted receive completes
 * twice; the endpoint answers afterwards.
 *
 * <p>Regression inputs: {@code src/test/resources/org/mrconf/transport/ReceivePathFuzzTestInputs/}.
 */
class ReceivePathFuzzTest {
    private static final int LOCAL = 7;
    private static final int PEER = 9;
    private static final int REGION_BYTES = 256;
    private static final int GUARD_BYTES = 64;
    private static final byte GUARD = (byte) 0xA5;
    private static final Opcode[] OPCODES = Opcode.values();

    @FuzzTest(maxDuration = "30s")
    void crcValidPacketsNeverBreakTheReceivePath(final FuzzedDataProvider data) {
        final long[] now = {1_000_000};
        final Endpoint endpoint = new Endpoint(
                EndpointConfig.builder().limits(8, 8).build(), (dst, port, ecn, b, o, l) -> {}, () -> now[0]);
        endpoint.createConnection(ConnectionConfig.of(LOCAL, PEER, 1, 4, 4));
        final ByteBuffer backing = ByteBuffer.allocate(2 * (REGION_BYTES + 2 * GUARD_BYTES));
        for (int i = 0; i < backing.capacity(); i++) {
            backing.put(i, GUARD);
        }
        final MemoryRegion writable = endpoint.registerRegion(
                0x1000, slice(backing, GUARD_BYTES), AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        final MemoryRegion readable =
                endpoint.registerRegion(0x8000, slice(backing, REGION_BYTES + 3 * GUARD_BYTES), AccessFlags.ALL);
        for (int r = 0; r < 4; r++) {
            endpoint.postReceive(LOCAL, r % 2, writable.key(), 0x1000 + 64L * r, 64, 100 + r);
        }
        final long[] keys = {writable.key() & 0xFFFF_FFFFL, readable.key() & 0xFFFF_FFFFL, 0x1234};
        final PacketEncoder encoder = new PacketEncoder();
        final Crc32cTrailer crc = new Crc32cTrailer();
        final ByteBuffer packet = ByteBuffer.allocate(2048);
        final Map<Long, Integer> completed = new HashMap<>();

        while (data.remainingBytes() > 0) {
            final int length = data.consumeBoolean() ? structured(data, encoder, packet, keys) : raw(data, crc, packet);
            if (length <= 0) {
                continue;
            }
            now[0] += data.consumeInt(0, 2_000_000);
            endpoint.onPacket(data.consumeBoolean() ? 1 : 2, 49152, 0, packet, 0, length, now[0]);
            if (data.consumeBoolean()) {
                endpoint.onWakeup(now[0]);
            }
            Completion completion;
            while ((completion = endpoint.pollCompletion()) != null) {
                if (completion.type() == WorkCompletionType.RECEIVE) {
                    final int times = completed.merge(completion.workRequestId(), 1, Integer::sum);
                    assertThat(times)
                            .as("receive %d completed", completion.workRequestId())
                            .isEqualTo(1);
                }
            }
        }
        assertGuards(backing);
        assertThat(endpoint.region(writable.key())).isNotNull();
        assertThat(endpoint.diagnostics().connections()).isBetween(0, 1);
    }

    private static int structured(
            final FuzzedDataProvider data, final PacketEncoder encoder, final ByteBuffer packet, final long[] keys) {
        final Opcode opcode = data.pickValue(OPCODES);
        final long connection = data.consumeBoolean() ? LOCAL : data.consumeLong(0, 0xFFFF_FFFFL);
        switch (opcode) {
            case ACK -> {
                encoder.ack(packet, 0)
                        .destinationConnectionId(connection)
                        .pathId(data.consumeInt(0, 5))
                        .echoedTimestamp(data.consumeLong(0, 0xFFFF_FFFFL))
                        .rateHint(data.consumeInt(0, 0xFFFF))
                        .cumulativePsn(data.consumeLong(0, 0xFFFF_FFFFL));
                return encoder.finish(packet, 0, Opcode.ACK.packetLength(0));
            }
            case NACK -> {
                encoder.nack(packet, 0)
                        .destinationConnectionId(connection)
                        .pathId(data.consumeInt(0, 5))
                        .psn(data.consumeLong(0, 300))
                        .code(data.pickValue(NackCode.values()))
                        .streamId(data.consumeInt(0, 5))
                        .messageSequenceNumber(data.consumeLong(0, 20))
                        .cumulativePsn(data.consumeLong(0, 300));
                return encoder.finish(packet, 0, Opcode.NACK.packetLength(0));
            }
            case PROBE -> {
                encoder.probe(packet, 0).destinationConnectionId(connection).pathId(data.consumeInt(0, 5));
                return encoder.finish(packet, 0, Opcode.PROBE.packetLength(0));
            }
            default -> {
                final int payload = opcode == Opcode.READ_REQUEST ? 0 : data.consumeInt(0, 96);
                final long messageLength = data.consumeLong(0, 400);
                final DataHeaderFlyweight header = encoder.data(packet, 0, opcode)
                        .destinationConnectionId(connection)
                        .pathId(data.consumeInt(0, 5))
                        .psn(data.consumeLong(0, 300))
                        .streamId(data.consumeInt(0, 5))
                        .payloadLength(payload)
                        .messageSequenceNumber(data.consumeLong(0, 20))
                        .messageLength(messageLength)
                        .messageOffset(data.consumeLong(0, 400))
                        .transmitTimestamp(data.consumeLong(0, 0xFFFF_FFFFL));
                final long key = data.pickValue(new long[] {keys[0], keys[1], keys[2]});
                final long address = data.consumeLong(0xF00, 0x8200);
                switch (opcode) {
                    case WRITE -> header.remoteAddress(address).remoteKey(key);
                    case WRITE_WITH_IMMEDIATE ->
                        header.remoteAddress(address).remoteKey(key).immediate(data.consumeInt());
                    case SEND -> header.receiveSequenceNumber(data.consumeLong(0, 6));
                    case READ_REQUEST ->
                        header.remoteAddress(address).remoteKey(key).sinkHandle(data.consumeInt(0, 4));
                    case READ_RESPONSE -> header.sinkHandle(data.consumeInt(0, 4));
                    default -> {}
                }
                if (data.consumeBoolean()) {
                    header.flags(data.consumeInt(0, 0xFF));
                }
                return encoder.finishWithPayload(packet, 0, ByteBuffer.wrap(data.consumeBytes(payload)));
            }
        }
    }

    private static int raw(final FuzzedDataProvider data, final Crc32cTrailer crc, final ByteBuffer packet) {
        final byte[] bytes = data.consumeBytes(data.consumeInt(0, 600));
        packet.put(0, bytes);
        if (bytes.length >= Crc32cTrailer.LENGTH) {
            crc.write(packet, 0, bytes.length);
        }
        return bytes.length;
    }

    private static ByteBuffer slice(final ByteBuffer backing, final int offset) {
        final ByteBuffer region = backing.slice(offset, REGION_BYTES);
        for (int i = 0; i < REGION_BYTES; i++) {
            region.put(i, (byte) 0);
        }
        return region;
    }

    private static void assertGuards(final ByteBuffer backing) {
        final int stride = REGION_BYTES + 2 * GUARD_BYTES;
        for (int i = 0; i < backing.capacity(); i++) {
            final int inStride = (i % stride) - GUARD_BYTES;
            final boolean inRegion = i < 2 * stride
                    && ((i >= GUARD_BYTES && i < GUARD_BYTES + REGION_BYTES)
                            || (i >= stride + GUARD_BYTES && i < stride + GUARD_BYTES + REGION_BYTES));
            if (!inRegion) {
                assertThat(backing.get(i))
                        .as("guard byte %d (%d into its stride)", i, inStride)
                        .isEqualTo(GUARD);
            }
        }
    }
}

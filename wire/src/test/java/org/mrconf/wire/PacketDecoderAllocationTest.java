package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The receive path allocates nothing: counts the bytes this thread allocates over 10,000 decodes,
 * after a warm-up, with the JDK's per-thread allocation counter. Not timed; the bound allows for the
 * counter's own noise but not for one allocation per decode.
 */
class PacketDecoderAllocationTest {
    private static final int DECODES = 10_000;
    private static final long BOUND_BYTES = 2_048;

    private final PacketDecoder decoder = new PacketDecoder();
    private final DecodedPacket out = new DecodedPacket();
    private long sink;

    @ParameterizedTest(name = "{0} direct={1} bitFlip={2}")
    @CsvSource({
        "WRITE, false, false", "WRITE, true, false", "SEND, false, false", "READ_RESPONSE, true, false",
        "READ_REQUEST, false, false", "ACK, false, false", "NACK, true, false", "PROBE, false, false",
        "WRITE, false, true", "WRITE, true, true"
    })
    void shouldDecodeWithoutAllocating(Opcode opcode, boolean direct, boolean bitFlip) {
        java.lang.management.ThreadMXBean plain = ManagementFactory.getThreadMXBean();
        assumeTrue(plain instanceof com.sun.management.ThreadMXBean, "no per-thread allocation counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) plain;
        assumeTrue(
                threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "per-thread allocation counter disabled");

        byte[] bytes = GoldenPackets.bytes(opcode);
        if (bitFlip) {
            bytes[20] ^= 0x10;
        }
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(bytes.length + 7) : ByteBuffer.allocate(bytes.length + 7);
        buf.order(ByteOrder.LITTLE_ENDIAN).put(7, bytes);

        decodeMany(buf, bytes.length, opcode);
        decodeMany(buf, bytes.length, opcode);
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 5 && least >= BOUND_BYTES; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            decodeMany(buf, bytes.length, opcode);
            least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before);
        }
        assertThat(out.status()).isEqualTo(bitFlip ? DecodeStatus.BAD_CRC : DecodeStatus.OK);
        assertThat(least).as("bytes allocated by %d decodes", DECODES).isLessThan(BOUND_BYTES);
        assertThat(sink).isNotZero();
    }

    private void decodeMany(ByteBuffer buf, int length, Opcode opcode) {
        for (int i = 0; i < DECODES; i++) {
            if (decoder.decode(buf, 7, length, out) == DecodeStatus.OK) {
                sink += out.commonHeader().psn() + out.payloadLength();
                if (opcode.hasDataHeader()) {
                    sink += out.dataHeader().messageOffset();
                }
            } else {
                sink += out.error().actual();
            }
        }
    }
}

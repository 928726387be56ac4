package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;

/**
 * Coverage-guided fuzzing of the packet decoder (Jazzer). It lives in reference-impl's tests because the
 * wire module declares no dependency at all, not even for tests (WireDependencyTest). Without {@code JAZZER_FUZZ=1} each target runs
 * once per committed input under {@code src/test/resources/org/mrconf/wire/PacketDecoderFuzzTestInputs/};
 * with it, Jazzer mutates them for the given duration and saves any crash there as a new regression input.
 *
 * <p>Two targets: raw bytes, which mostly stop at the CRC check, and bytes whose CRC32C trailer is
 * recomputed after mutation, so the fuzzer reaches every field check behind it.
 */
class PacketDecoderFuzzTest {
    private final PacketDecoder decoder = new PacketDecoder();
    private final DecodedPacket decoded = new DecodedPacket();
    private final Crc32cTrailer crc = new Crc32cTrailer();

    @FuzzTest(maxDuration = "30s")
    void rawBytesNeverBreakTheDecoder(final FuzzedDataProvider data) {
        check(data.consumeRemainingAsBytes(), false);
    }

    @FuzzTest(maxDuration = "30s")
    void crcValidBytesNeverBreakTheDecoder(final FuzzedDataProvider data) {
        check(data.consumeRemainingAsBytes(), true);
    }

    private void check(final byte[] bytes, final boolean fixCrc) {
        final int offset = 3; // not at 0: the decoder must use absolute indices from the offset
        final ByteBuffer buffer = ByteBuffer.allocate(bytes.length + offset + 5);
        buffer.put(offset, bytes);
        if (fixCrc && bytes.length >= Crc32cTrailer.LENGTH) {
            crc.write(buffer, offset, bytes.length);
        }
        final DecodeStatus status = decoder.decode(buffer, offset, bytes.length, decoded);
        assertThat(status).isNotNull();
        if (status == DecodeStatus.OK) {
            assertThat(decoded.payloadIndex()).isBetween(offset, offset + bytes.length);
            assertThat(decoded.payloadIndex() + decoded.payloadLength()).isLessThanOrEqualTo(offset + bytes.length);
            assertThat(decoded.toString()).isNotEmpty();
            final ByteBuffer copy = ByteBuffer.allocate(decoded.payloadLength());
            decoded.copyPayload(copy, 0);
        } else {
            assertThat(decoded.error()).isNotNull();
            assertThat(decoded.error().toString()).isNotEmpty();
        }
        // The object model agrees with the decoder: it parses exactly what the decoder accepts.
        final byte[] exact = new byte[bytes.length];
        buffer.get(offset, exact);
        try {
            assertThat(Packet.fromBytes(exact)).isNotNull();
            assertThat(status).isEqualTo(DecodeStatus.OK);
        } catch (final MalformedPacketException e) {
            assertThat(status).isNotEqualTo(DecodeStatus.OK);
        }
    }
}

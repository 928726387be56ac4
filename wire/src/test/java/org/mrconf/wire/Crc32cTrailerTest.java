package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Crc32cTrailerTest {
    private static final byte[] CHECK_INPUT = "123456789".getBytes(StandardCharsets.US_ASCII);
    /** The CRC-32C check value of RFC 3720 / the CRC catalogue. */
    private static final long CHECK_VALUE = 0xE3069283L;

    private final Crc32cTrailer crc = new Crc32cTrailer();

    @Test
    void shouldComputeTheCastagnoliCheckValueInEveryBufferKind() {
        ByteBuffer heap = ByteBuffer.allocate(20).put(5, CHECK_INPUT);
        ByteBuffer direct = ByteBuffer.allocateDirect(20).put(5, CHECK_INPUT);
        for (ByteBuffer buf : new ByteBuffer[] {
            heap,
            direct,
            heap.asReadOnlyBuffer(),
            direct.asReadOnlyBuffer(),
            heap.duplicate().position(3).slice(),
            direct.duplicate().position(3).slice()
        }) {
            int at = buf.capacity() == 17 ? 2 : 5;
            assertThat(crc.compute(buf, at, 9)).as("%s", buf).isEqualTo(CHECK_VALUE);
        }
    }

    @Test
    void shouldNotMoveTheCallersPositionOrLimit() {
        ByteBuffer direct = ByteBuffer.allocateDirect(20).put(5, CHECK_INPUT);
        direct.position(7).limit(15);
        assertThat(crc.compute(direct, 5, 9)).isEqualTo(CHECK_VALUE);
        assertThat(direct.position()).isEqualTo(7);
        assertThat(direct.limit()).isEqualTo(15);
    }

    @Test
    void shouldGiveTheSameResultWhenAlternatingBuffersAndWindows() {
        ByteBuffer a = ByteBuffer.allocateDirect(64).put(40, CHECK_INPUT);
        ByteBuffer b = ByteBuffer.allocateDirect(16).put(0, CHECK_INPUT);
        for (int i = 0; i < 3; i++) {
            assertThat(crc.compute(a, 40, 9)).isEqualTo(CHECK_VALUE);
            assertThat(crc.compute(a, 0, 9)).isEqualTo(crc.compute(ByteBuffer.allocate(9), 0, 9));
            assertThat(crc.compute(b, 0, 9)).isEqualTo(CHECK_VALUE);
        }
    }

    @Test
    void shouldWriteTheTrailerBigEndianAndVerifyIt() {
        ByteBuffer buf = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).put(1, CHECK_INPUT);
        assertThat(crc.write(buf, 1, 13)).isEqualTo(CHECK_VALUE);
        assertThat(buf.array()).startsWith(0, '1', '2', '3', '4', '5', '6', '7', '8', '9', 0xE3, 0x06, 0x92, 0x83);
        assertThat(Crc32cTrailer.read(buf, 1, 13)).isEqualTo(CHECK_VALUE);
        assertThat(crc.verify(buf, 1, 13)).isTrue();
        buf.put(3, (byte) 0);
        assertThat(crc.verify(buf, 1, 13)).isFalse();
    }

    @Test
    void shouldPlaceTheTrailerInTheLastFourBytes() {
        assertThat(Crc32cTrailer.trailerOffset(24)).isEqualTo(20);
        assertThat(Crc32cTrailer.LENGTH).isEqualTo(4);
    }
}

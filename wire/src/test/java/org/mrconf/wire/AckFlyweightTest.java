package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class AckFlyweightTest {
    private final ByteBuffer buf = ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN);
    private final AckFlyweight ack = new PacketEncoder().ack(buf, 10);

    @Test
    void shouldStoreSackBitILeastSignificantFirstInByte28PlusIOver8() {
        for (int bit = 0; bit < WireConstants.SACK_BITS; bit++) {
            ack.clearSack().sackBit(bit, true);
            for (int i = 0; i < AckFlyweight.SACK_BITMAP_SIZE; i++) {
                int expected = i == bit / 8 ? 1 << (bit % 8) : 0;
                assertThat(buf.get(10 + AckFlyweight.SACK_BITMAP_OFFSET + i) & 0xFF)
                        .as("bit %d byte %d", bit, i)
                        .isEqualTo(expected);
            }
            assertThat(ack.sackBit(bit)).isTrue();
            assertThat(ack.sackWord(bit / 64)).isEqualTo(1L << (bit % 64));
            assertThat(ack.sackCount()).isOne();
        }
    }

    @Test
    void shouldSetAndClearSingleBitsWithoutTouchingNeighbours() {
        ack.sackWord(2, -1L).sackBit(130, false);
        assertThat(ack.sackWord(2)).isEqualTo(~(1L << 2));
        assertThat(ack.sackBit(129)).isTrue();
        assertThat(ack.sackBit(131)).isTrue();
        assertThat(ack.sackCount()).isEqualTo(63);
        ack.clearSack();
        assertThat(ack.sackCount()).isZero();
        assertThat(ack.rawU64(AckFlyweight.SACK_BITMAP_OFFSET + 16)).isZero();
    }

    @Test
    void shouldRejectSackBitsOutsideTheBitmap() {
        assertThatThrownBy(() -> ack.sackBit(256)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ack.sackBit(-1, true)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ack.sackWord(4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldReadFieldsBigEndianInALittleEndianBuffer() {
        ack.echoedTimestamp(0x01020304L)
                .ceCount(AckFlyweight.CE_COUNT_MAX)
                .rateHint(AckFlyweight.RATE_HINT_NO_LIMIT)
                .reserved(0xBEEF);
        assertThat(buf.get(10 + AckFlyweight.ECHOED_TIMESTAMP_OFFSET)).isEqualTo((byte) 0x01);
        assertThat(ack.echoedTimestamp()).isEqualTo(0x01020304L);
        assertThat(ack.ceCount()).isEqualTo(0xFFFF);
        assertThat(ack.rateHint()).isEqualTo(0xFFFF_FFFFL);
        assertThat(ack.reserved()).isEqualTo(0xBEEF);
        assertThat(ack.toString()).contains("rateHint=unlimited", "reserved=48879", "sack=[]");
        assertThat(ack.headerLength()).isEqualTo(60);
    }
}

package org.mrconf.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class GbnHeaderTest {
    private static final int OFFSET = 5;

    private final ByteBuffer buffer = ByteBuffer.allocate(64);
    private final GbnHeader header = new GbnHeader();

    @Test
    void shouldWriteFieldsBigEndianAtTheirOffsets() {
        header.wrap(buffer, OFFSET)
                .type(GbnHeader.TYPE_DATA)
                .flags(GbnHeader.FLAG_LAST | GbnHeader.FLAG_ACK_REQUEST)
                .payloadLength(0x1234)
                .psn(0xA1B2_C3D4L)
                .messageId(0x0102_0304L);

        final byte[] bytes = new byte[GbnHeader.HEADER_LENGTH];
        buffer.get(OFFSET, bytes);
        assertThat(bytes).containsExactly(0x01, 0x03, 0x12, 0x34, 0xA1, 0xB2, 0xC3, 0xD4, 0x01, 0x02, 0x03, 0x04);
    }

    @Test
    void shouldReadBackWhatItWroteWhateverTheBufferOrder() {
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        header.wrap(buffer, OFFSET)
                .type(GbnHeader.TYPE_NAK)
                .flags(0)
                .payloadLength(65_535)
                .psn(0xFFFF_FFFFL)
                .messageId(0xFFFF_FFFEL);

        assertThat(header.type()).isEqualTo(GbnHeader.TYPE_NAK);
        assertThat(header.payloadLength()).isEqualTo(65_535);
        assertThat(header.psn()).isEqualTo(0xFFFF_FFFFL);
        assertThat(header.messageId()).isEqualTo(0xFFFF_FFFEL);
        assertThat(buffer.getInt(OFFSET + GbnHeader.PSN_OFFSET)).isEqualTo(-1);
        assertThat(buffer.position()).isZero();
    }

    @Test
    void shouldWrapPsnModulo2To32() {
        header.wrap(buffer, 0).psn(0x1_0000_0005L);

        assertThat(header.psn()).isEqualTo(5);
    }

    @Test
    void shouldDescribeItself() {
        header.wrap(buffer, 0)
                .type(GbnHeader.TYPE_DATA)
                .flags(GbnHeader.FLAG_LAST)
                .payloadLength(10)
                .psn(7)
                .messageId(2);

        assertThat(header).hasToString("GbnHeader{DATA psn=7 msg=2 length=10 LAST}");
        assertThat(header.hasFlags(GbnHeader.FLAG_LAST)).isTrue();
        assertThat(header.hasFlags(GbnHeader.FLAG_ACK_REQUEST)).isFalse();
    }
}

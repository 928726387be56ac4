package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class HeaderFlyweightTest {

    @Test
    void shouldWriteNetworkOrderWhateverTheBufferOrder() {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            ByteBuffer buf = ByteBuffer.allocate(32).order(order);
            CommonHeaderFlyweight h = new CommonHeaderFlyweight()
                    .wrap(buf, 8)
                    .version(0x1A)
                    .opcodeValue(0x02)
                    .flags(0x0102)
                    .destinationConnectionId(0x03040506L)
                    .pathId(0x07)
                    .reserved1(0x08)
                    .reserved2(0x090A)
                    .psn(0x0B0C0D0EL)
                    .rawU64(16, 0x0F1011121314151FL);
            assertThat(Hex.hex(buf.array()))
                    .as("%s", order)
                    .isEqualTo("0000000000000000" + "1a020102030405060708090a0b0c0d0e" + "0f1011121314151f");
            assertThat(h.versionMajor()).isEqualTo(1);
            assertThat(h.versionMinor()).isEqualTo(0xA);
            assertThat(h.opcode()).isEqualTo(Opcode.WRITE_WITH_IMMEDIATE);
            assertThat(h.flags()).isEqualTo(0x0102);
            assertThat(h.destinationConnectionId()).isEqualTo(0x03040506L);
            assertThat(h.pathId()).isEqualTo(7);
            assertThat(h.reserved1()).isEqualTo(8);
            assertThat(h.reserved2()).isEqualTo(0x090A);
            assertThat(h.psn()).isEqualTo(0x0B0C0D0EL);
            assertThat(h.rawU64(16)).isEqualTo(0x0F1011121314151FL);
            assertThat(h.rawU16(2)).isEqualTo(0x0102);
            assertThat(h.rawU8(0)).isEqualTo(0x1A);
            assertThat(h.offset()).isEqualTo(8);
            assertThat(h.buffer()).isSameAs(buf);
        }
    }

    @Test
    void shouldWidenUnsignedFields() {
        ByteBuffer buf = ByteBuffer.allocate(16);
        for (int i = 0; i < 16; i++) {
            buf.put(i, (byte) 0xFF);
        }
        CommonHeaderFlyweight h = new CommonHeaderFlyweight().wrap(buf, 0);
        assertThat(h.version()).isEqualTo(0xFF);
        assertThat(h.flags()).isEqualTo(0xFFFF);
        assertThat(h.destinationConnectionId()).isEqualTo(0xFFFF_FFFFL);
        assertThat(h.pathId()).isEqualTo(255);
        assertThat(h.psn()).isEqualTo(0xFFFF_FFFFL);
        assertThat(h.opcode()).isNull();
    }

    @Test
    void shouldWriteTheLowBitsOfOutOfRangeValuesWithoutComplaint() {
        ByteBuffer buf = ByteBuffer.allocate(16);
        CommonHeaderFlyweight h = new CommonHeaderFlyweight()
                .wrap(buf, 0)
                .pathId(0x1FF)
                .flags(0x1_0002)
                .destinationConnectionId(-1L)
                .psn(0x1_0000_0005L);
        assertThat(h.pathId()).isEqualTo(0xFF);
        assertThat(h.flags()).isEqualTo(2);
        assertThat(h.destinationConnectionId()).isEqualTo(0xFFFF_FFFFL);
        assertThat(h.psn()).isEqualTo(5);
    }

    @Test
    void shouldDescribeTheCommonHeader() {
        ByteBuffer buf = ByteBuffer.allocate(16);
        CommonHeaderFlyweight h = new CommonHeaderFlyweight()
                .wrap(buf, 0)
                .version(0x10)
                .opcode(Opcode.PROBE)
                .flags(PacketFlags.ACK_REQUEST)
                .destinationConnectionId(0xABC)
                .pathId(3)
                .psn(9);
        assertThat(h)
                .hasToString("CommonHeaderFlyweight{version=0x10, opcode=PROBE, flags=ACK_REQUEST, "
                        + "destinationConnectionId=0xabc, pathId=3, psn=9}");
        assertThat(h.hasFlags(PacketFlags.ACK_REQUEST)).isTrue();
        assertThat(h.hasFlags(PacketFlags.RETRANSMISSION)).isFalse();
    }
}

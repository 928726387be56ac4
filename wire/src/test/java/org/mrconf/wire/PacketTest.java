package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The immutable packet records: golden encodings, decoding back, and their own checks. */
class PacketTest {

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldEncodeRecordsToGoldenBytes(Opcode opcode) {
        Packet packet = GoldenPackets.RECORDS.get(opcode);
        assertThat(packet.opcode()).isEqualTo(opcode);
        assertThat(Hex.hex(packet.toBytes())).isEqualTo(Hex.hex(GoldenPackets.bytes(opcode)));
        assertThat(packet.encodedLength()).isEqualTo(GoldenPackets.bytes(opcode).length);
    }

    @ParameterizedTest
    @EnumSource(Opcode.class)
    void shouldDecodeGoldenBytesToRecords(Opcode opcode) {
        assertThat(Packet.fromBytes(GoldenPackets.bytes(opcode))).isEqualTo(GoldenPackets.RECORDS.get(opcode));
    }

    @Test
    void shouldThrowMalformedPacketWithTheDecodeError() {
        byte[] bytes = GoldenPackets.bytes(Opcode.PROBE);
        bytes[20] ^= 1;
        assertThatThrownBy(() -> Packet.fromBytes(bytes)).isInstanceOfSatisfying(MalformedPacketException.class, e -> {
            assertThat(e.status()).isEqualTo(DecodeStatus.BAD_CRC);
            assertThat(e.error().field()).isEqualTo(DecodeError.FIELD_CRC32C);
            assertThat(e).hasMessageStartingWith("BAD_CRC (5.6.2): crc32c = 0x");
        });
    }

    @Test
    void shouldRejectValuesThatDoNotFitTheirField() {
        assertThatThrownBy(() -> CommonHeader.of(0x1_0000_0000L, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CommonHeader.of(0, 256, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CommonHeader.of(0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataPacket.send(CommonHeader.of(0, 0, 0), 0x10000, 0, 0, 0, 0, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataPacket.send(CommonHeader.of(0, 0, 0), 0, 0, 0, 0, 0, 0, new byte[0x10000]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AckPacket.of(CommonHeader.of(0, 0, 0), 0, 0x10000, 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AckPacket.of(CommonHeader.of(0, 0, 0), 0, 0, 0, 256))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void shouldRejectExtensionFieldsTheOpcodeDoesNotCarry() {
        CommonHeader h = CommonHeader.of(1, 2, 3);
        assertThatThrownBy(() -> new DataPacket(Opcode.SEND, h, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, new byte[0]))
                .hasMessageContaining("remote address");
        assertThatThrownBy(() -> new DataPacket(Opcode.WRITE, h, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, new byte[0]))
                .hasMessageContaining("immediate");
        assertThatThrownBy(() -> new DataPacket(Opcode.WRITE, h, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, new byte[0]))
                .hasMessageContaining("receive sequence number");
        assertThatThrownBy(() -> new DataPacket(Opcode.SEND, h, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, new byte[0]))
                .hasMessageContaining("sink handle");
        assertThatThrownBy(() -> new DataPacket(Opcode.ACK, h, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldKeepRecordsImmutableAndCompareArraysByContent() {
        byte[] payload = {1, 2, 3};
        DataPacket packet = DataPacket.send(CommonHeader.of(1, 2, 3), 4, 5, 3, 0, 6, 7, payload);
        payload[0] = 9;
        packet.payload()[1] = 9;
        assertThat(packet.payload()).containsExactly(1, 2, 3);
        assertThat(packet).isEqualTo(DataPacket.send(CommonHeader.of(1, 2, 3), 4, 5, 3, 0, 6, 7, new byte[] {1, 2, 3}));
        assertThat(packet.hashCode())
                .isEqualTo(DataPacket.send(CommonHeader.of(1, 2, 3), 4, 5, 3, 0, 6, 7, new byte[] {1, 2, 3})
                        .hashCode());
        assertThat(packet.toString()).contains("opcode=SEND", "payload(3)=010203");

        AckPacket ack = AckPacket.of(CommonHeader.of(1, 2, 3), 0, 0, 0, 5, 200);
        ack.sackWords()[0] = -1;
        assertThat(ack.sackBits()).containsExactly(5, 200);
        assertThat(ack).isEqualTo(AckPacket.of(CommonHeader.of(1, 2, 3), 0, 0, 0, 200, 5));
        assertThat(ack.toString()).contains("sackBits=[5, 200]");
    }

    @Test
    void shouldEncodeARecordAtAnOffsetOfALittleEndianDirectBuffer() {
        Packet packet = GoldenPackets.RECORDS.get(Opcode.WRITE_WITH_IMMEDIATE);
        ByteBuffer buf = ByteBuffer.allocateDirect(100).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int length = packet.encode(buf, 11);
        byte[] bytes = new byte[length];
        buf.get(11, bytes);
        assertThat(bytes).isEqualTo(GoldenPackets.bytes(Opcode.WRITE_WITH_IMMEDIATE));
        assertThat(Packet.decode(buf, 11, length)).isEqualTo(packet);
    }
}

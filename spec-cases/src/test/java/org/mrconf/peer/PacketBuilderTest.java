package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.CommonHeaderFlyweight;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketDecoder;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.ProbePacket;

class PacketBuilderTest {
    private static final long CONNECTION = 0x0102_0304L;
    private static final byte[] PAYLOAD = {10, 20, 30, 40, 50};

    @Test
    void shouldBuildExactlyTheBytesOfEveryOpcode() {
        CommonHeader header = new CommonHeader(0x10, PacketFlags.ACK_REQUEST, CONNECTION, 3, 77);
        List<Packet> expected = List.of(
                DataPacket.write(header, 2, 9, 105, 100, 1234, 0xFFFF_0000_1000L, 0x55, PAYLOAD),
                DataPacket.writeWithImmediate(header, 2, 9, 105, 100, 1234, 0x2000, 0x55, 0xCAFE_F00DL, PAYLOAD),
                DataPacket.send(header, 2, 9, 105, 100, 1234, 17, PAYLOAD),
                DataPacket.readRequest(header, 2, 9, 4096, 1234, 0x3000, 0x66, 0xABCD),
                DataPacket.readResponse(header, 2, 9, 105, 100, 1234, 0xABCD, PAYLOAD),
                AckPacket.of(header, 1234, 7, 25_000, 1, 2, 200),
                new NackPacket(header, NackCode.BOUNDS, 2, 9, 70, 500),
                new ProbePacket(header, 1234));
        List<PacketBuilder> built = List.of(
                common(PacketBuilder.write()).stream(2)
                        .msn(9)
                        .messageLength(105)
                        .messageOffset(100)
                        .transmitTimestamp(1234)
                        .remoteAddress(0xFFFF_0000_1000L)
                        .remoteKey(0x55)
                        .payload(PAYLOAD),
                common(PacketBuilder.writeWithImmediate()).stream(2)
                        .msn(9)
                        .messageLength(105)
                        .messageOffset(100)
                        .transmitTimestamp(1234)
                        .remoteAddress(0x2000)
                        .remoteKey(0x55)
                        .immediate(0xCAFE_F00DL)
                        .payload(PAYLOAD),
                common(PacketBuilder.send()).stream(2)
                        .msn(9)
                        .messageLength(105)
                        .messageOffset(100)
                        .transmitTimestamp(1234)
                        .rsn(17)
                        .payload(PAYLOAD),
                common(PacketBuilder.readRequest()).stream(2)
                        .msn(9)
                        .messageLength(4096)
                        .transmitTimestamp(1234)
                        .remoteAddress(0x3000)
                        .remoteKey(0x66)
                        .sinkHandle(0xABCD),
                common(PacketBuilder.readResponse()).stream(2)
                        .msn(9)
                        .messageLength(105)
                        .messageOffset(100)
                        .transmitTimestamp(1234)
                        .sinkHandle(0xABCD)
                        .payload(PAYLOAD),
                common(PacketBuilder.ack())
                        .echoedTimestamp(1234)
                        .ceCount(7)
                        .rateHint(25_000)
                        .sackBits(1, 2, 200),
                common(PacketBuilder.nack(NackCode.BOUNDS)).stream(2)
                        .msn(9)
                        .cumulativePsn(70)
                        .retryAfter(500),
                common(PacketBuilder.probe()).transmitTimestamp(1234));

        for (int i = 0; i < expected.size(); i++) {
            byte[] bytes = built.get(i).build();
            assertThat(bytes)
                    .as(expected.get(i).opcode().name())
                    .isEqualTo(expected.get(i).toBytes());
            assertThat(Packet.fromBytes(bytes)).isEqualTo(expected.get(i));
            assertThat(built.get(i).length()).isEqualTo(bytes.length);
        }
    }

    @Test
    void shouldRebuildARecordByteForByte() {
        Packet write = DataPacket.write(CommonHeader.of(CONNECTION, 1, 5), 0, 0, 5, 0, 99, 0x1000, 0x22, PAYLOAD);

        assertThat(PacketBuilder.from(write).build()).isEqualTo(write.toBytes());
        assertThat(PacketBuilder.from(write).toPacket()).isEqualTo(write);
    }

    @Test
    void shouldMakeAValidDefaultPacket() {
        Packet packet = PacketBuilder.write().payloadPattern(8, 1).toPacket();

        assertThat(packet).isInstanceOf(DataPacket.class);
        DataPacket data = (DataPacket) packet;
        assertThat(data.messageLength()).isEqualTo(8);
        assertThat(data.payload()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(((AckPacket) PacketBuilder.ack().toPacket()).rateHint()).isEqualTo(0xFFFF_FFFFL);
        assertThat(PacketBuilder.probe().toPacket().header().flags()).isEqualTo(PacketFlags.ACK_REQUEST);
    }

    @Test
    void shouldBreakTheCrcOnPurposeAndNothingElse() {
        byte[] good =
                PacketBuilder.ack().connection(CONNECTION).cumulativePsn(3).build();
        byte[] bad = PacketBuilder.ack()
                .connection(CONNECTION)
                .cumulativePsn(3)
                .badCrc()
                .build();
        byte[] chosen = PacketBuilder.ack()
                .connection(CONNECTION)
                .cumulativePsn(3)
                .crc(0x1234_5678L)
                .build();

        assertThat(status(bad)).isEqualTo(DecodeStatus.BAD_CRC);
        assertThat(Arrays.copyOf(bad, bad.length - 4)).isEqualTo(Arrays.copyOf(good, good.length - 4));
        assertThat(Crc32cTrailer.read(ByteBuffer.wrap(bad), 0, bad.length))
                .isNotEqualTo(Crc32cTrailer.read(ByteBuffer.wrap(good), 0, good.length));
        assertThat(Crc32cTrailer.read(ByteBuffer.wrap(chosen), 0, chosen.length))
                .isEqualTo(0x1234_5678L);
    }

    @Test
    void shouldBuildEachKindOfMalformedPacket() {
        assertThat(status(PacketBuilder.write().version(0x20).build())).isEqualTo(DecodeStatus.UNSUPPORTED_VERSION);
        assertThat(status(PacketBuilder.opcode(0x7F).build())).isEqualTo(DecodeStatus.UNKNOWN_OPCODE);
        assertThat(PacketBuilder.opcode(0x7F).build()).hasSize(20);
        assertThat(PacketBuilder.opcode(0x7F).headerLength(40).build()).hasSize(44);
        assertThat(status(PacketBuilder.write().truncateTo(19).build())).isEqualTo(DecodeStatus.TRUNCATED);
        assertThat(status(PacketBuilder.write().payload(PAYLOAD).truncateTo(40).build()))
                .isEqualTo(DecodeStatus.TRUNCATED);
        assertThat(status(PacketBuilder.write()
                        .payload(PAYLOAD)
                        .payloadLengthField(4)
                        .build()))
                .isEqualTo(DecodeStatus.INCONSISTENT_LENGTH);
        assertThat(status(PacketBuilder.write().payload(PAYLOAD).padding(3).build()))
                .isEqualTo(DecodeStatus.INCONSISTENT_LENGTH);
        assertThat(status(PacketBuilder.write()
                        .payload(PAYLOAD)
                        .trailingBytes(new byte[] {1})
                        .build()))
                .isEqualTo(DecodeStatus.BAD_CRC);
        assertThat(status(PacketBuilder.write()
                        .payload(PAYLOAD)
                        .messageOffset(10)
                        .messageLength(12)
                        .build()))
                .isEqualTo(DecodeStatus.INCONSISTENT_LENGTH);
        assertThat(status(PacketBuilder.readRequest().payloadLengthField(5).build()))
                .isEqualTo(DecodeStatus.INVALID_FIELD);
        assertThat(status(PacketBuilder.readRequest().messageOffset(1).build())).isEqualTo(DecodeStatus.INVALID_FIELD);
        assertThat(status(PacketBuilder.ack().sackBits(0).build())).isEqualTo(DecodeStatus.INVALID_FIELD);
        assertThat(status(PacketBuilder.of(org.mrconf.wire.Opcode.NACK)
                        .codeValue(0x42)
                        .build()))
                .isEqualTo(DecodeStatus.INVALID_FIELD);
    }

    @Test
    void shouldCarryReservedBitsAndMinorVersionsThatReceiversIgnore() {
        byte[] bytes = PacketBuilder.write()
                .version(0x11)
                .flags(0x8000 | PacketFlags.RETRANSMISSION)
                .reserved1(0xAA)
                .reserved2(0xBEEF)
                .payload(PAYLOAD)
                .build();

        CommonHeaderFlyweight header = new CommonHeaderFlyweight().wrap(ByteBuffer.wrap(bytes), 0);
        assertThat(status(bytes)).isEqualTo(DecodeStatus.OK);
        assertThat(header.versionMinor()).isEqualTo(1);
        assertThat(header.flags()).isEqualTo(0x8001);
        assertThat(header.reserved1()).isEqualTo(0xAA);
        assertThat(header.reserved2()).isEqualTo(0xBEEF);
    }

    @Test
    void shouldPokeRawBytesBeforeTheCrc() {
        byte[] bytes = PacketBuilder.send()
                .payload(PAYLOAD)
                .rawU32(36, 0xDEAD_BEEFL)
                .rawU8(40, 0x99)
                .build();

        assertThat(status(bytes)).isEqualTo(DecodeStatus.OK);
        assertThat(((DataPacket) Packet.fromBytes(bytes)).receiveSequenceNumber())
                .isEqualTo(0xDEAD_BEEFL);
        assertThat(bytes[40]).isEqualTo((byte) 0x99);
        assertThatThrownBy(() -> PacketBuilder.ack().rawU32(58, 1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the 60 bytes");
    }

    @Test
    void shouldRefuseAnExtensionFieldTheOpcodeDoesNotCarry() {
        assertThatThrownBy(() -> PacketBuilder.write().immediate(1).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("WRITE does not carry a immediate; write the bytes with rawU*()");
        assertThatThrownBy(() -> PacketBuilder.ack().payloadLengthField(1).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PacketBuilder.write().headerLength(20)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldSetSackBitsByPsnAcrossTheWrap() {
        AckPacket ack = (AckPacket)
                PacketBuilder.ack().cumulativePsn(0xFFFF_FFFEL).sackPsns(0, 1).toPacket();

        assertThat(ack.sackBits()).containsExactly(2, 3);
        assertThatThrownBy(() -> PacketBuilder.ack().cumulativePsn(10).sackPsns(10))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static PacketBuilder common(PacketBuilder b) {
        return b.version(0x10)
                .flags(PacketFlags.ACK_REQUEST)
                .connection(CONNECTION)
                .path(3)
                .psn(77);
    }

    private static DecodeStatus status(byte[] bytes) {
        return new PacketDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length, new DecodedPacket());
    }
}

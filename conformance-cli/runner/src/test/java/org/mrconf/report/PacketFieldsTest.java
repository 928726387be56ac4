package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.CommonHeader;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.ProbePacket;

/**
 * The report decodes evidence packets under the Wireshark dissector's field names, from the bytes the codec writes,
 * and spells a case message's packet dumps the same way.
 */
class PacketFieldsTest {
    private static final CommonHeader HEADER = CommonHeader.of(0x20002, 3, 41);

    @Test
    void shouldDecodeEachOpcodeAsTheDissectorNamesItsFields() {
        final byte[] write = DataPacket.write(HEADER, 2, 9, 8, 4, 77, 0x1000, 0x42, new byte[] {1, 2, 3, 4})
                .toBytes();
        final byte[] send = DataPacket.send(HEADER, 1, 5, 4, 0, 7, 12, new byte[] {9, 9, 9, 9})
                .toBytes();
        final byte[] ack = AckPacket.of(HEADER, 99, 2, 0xFFFFFFFFL, 1, 3).toBytes();
        final byte[] nack = new NackPacket(HEADER, NackCode.RECEIVER_NOT_READY, 1, 5, 40, 250).toBytes();
        final byte[] probe = ProbePacket.of(HEADER, 1234).toBytes();

        assertThat(PacketFields.decode(write).oneLine())
                .isEqualTo("WRITE metaroce.version=0x10 metaroce.opcode=WRITE (0x01) metaroce.flags=0x0000"
                        + " metaroce.connection_id=0x00020002 metaroce.path_id=3 metaroce.psn=41 metaroce.stream_id=2"
                        + " metaroce.payload_length=4 metaroce.msn=9 metaroce.message_length=8"
                        + " metaroce.message_offset=4 metaroce.transmit_timestamp=77"
                        + " metaroce.remote_address=0x0000000000001000 metaroce.remote_key=0x00000042"
                        + " metaroce.crc32c=" + crc(write) + " metaroce.crc32c.status=Good");
        assertThat(PacketFields.decode(write).info()).isEqualTo("WRITE path=3 psn=41 stream=2 msn=9 off=4 len=4");
        assertThat(PacketFields.decode(send).fields()).contains(new PacketFields.Field("metaroce.rsn", "12"));
        final PacketFields.Decoded a = PacketFields.decode(ack);
        assertThat(a.fields())
                .contains(
                        new PacketFields.Field("metaroce.echoed_timestamp", "99"),
                        new PacketFields.Field("metaroce.ce_count", "2"),
                        new PacketFields.Field("metaroce.rate_hint", "no limit"),
                        new PacketFields.Field("metaroce.sack.psn", "42,44"),
                        new PacketFields.Field("metaroce.sack.count", "2"));
        assertThat(a.problems()).isEmpty();
        assertThat(PacketFields.decode(nack).fields())
                .contains(
                        new PacketFields.Field("metaroce.nack.code", "RECEIVER_NOT_READY (0x03)"),
                        new PacketFields.Field("metaroce.cumulative_psn", "40"),
                        new PacketFields.Field("metaroce.retry_after", "250"));
        assertThat(PacketFields.decode(probe).fields())
                .contains(new PacketFields.Field("metaroce.transmit_timestamp", "1234"));
    }

    @Test
    void shouldNameWhatIsWrongWithAMalformedPacketOnce() {
        final byte[] bad = ProbePacket.of(HEADER, 1).toBytes();
        bad[bad.length - 1] ^= 1;

        final PacketFields.Decoded d = PacketFields.decode(bad);

        assertThat(d.fields()).contains(new PacketFields.Field("metaroce.crc32c.status", "Bad"));
        assertThat(d.problems()).hasSize(1).first().asString().startsWith("CRC32C does not match");
        assertThat(PacketFields.decode(new byte[] {0x10, 0x01}).kind()).isEqualTo("malformed");
        assertThat(PacketFields.decodeHex("zz")).isEmpty();
        assertThat(PacketFields.decodeHex("")).isEmpty();
    }

    @Test
    void shouldRespellThePacketDumpsOfACaseMessage() {
        // As a case's message quotes a received packet (PacketMatcher), version 16 being 0x10.
        final String message = "expected a packet matching ACK, path 1, got 0 of 1 received:\n  #5 @64ns from :54796 "
                + AckPacket.of(CommonHeader.of(131074, 0, 4), 99, 0, 4000, 1)
                + "\n    mismatch: expected path 1, was 0";

        final String spelled = PacketFields.respell(message);

        assertThat(spelled)
                .isEqualTo("expected a packet matching ACK, path 1, got 0 of 1 received:\n  #5 @64ns from :54796 ACK"
                        + " metaroce.version=0x10 metaroce.flags=0x0000 metaroce.connection_id=0x00020002"
                        + " metaroce.path_id=0 metaroce.psn=4 metaroce.echoed_timestamp=99 metaroce.ce_count=0"
                        + " metaroce.rate_hint=4000 metaroce.sack.psn=5 metaroce.sack.count=1\n"
                        + "    mismatch: expected path 1, was 0");
        final String data = PacketFields.respell(
                "got " + DataPacket.write(HEADER, 0, 1, 4, 0, 0, 0x10, 0x20, new byte[] {1, 2}) + " twice");
        assertThat(data)
                .startsWith("got WRITE metaroce.version=0x10")
                .contains("metaroce.remote_key=0x20", "metaroce.payload_length=2 metaroce.payload=0102")
                .doesNotContain("rsn", "immediate", "sink_handle", "DataPacket[")
                .endsWith(" twice");
        assertThat(PacketFields.respell("no dump here [1, 2]")).isEqualTo("no dump here [1, 2]");
        assertThat(PacketFields.respell("cut AckPacket[header=")).isEqualTo("cut AckPacket[header=");
    }

    private static String crc(final byte[] packet) {
        final int n = packet.length;
        return String.format(
                "0x%02x%02x%02x%02x",
                packet[n - 4] & 0xFF, packet[n - 3] & 0xFF, packet[n - 2] & 0xFF, packet[n - 1] & 0xFF);
    }
}

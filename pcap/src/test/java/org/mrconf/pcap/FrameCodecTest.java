package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pcap4j.packet.EthernetPacket;
import org.pcap4j.packet.IpV4Packet;
import org.pcap4j.packet.IpV6Packet;
import org.pcap4j.packet.UdpPacket;

class FrameCodecTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 17, 64, 1024, 4095, 9000})
    void shouldWriteCorrectIpv4ChecksumsComputedIndependently(int size) {
        byte[] bytes = FrameCodec.encode(Frames.ipv4(size));

        assertThat(Checksums.ipv4HeaderChecksumField(bytes)).isEqualTo(Checksums.ipv4HeaderChecksum(bytes));
        assertThat(Checksums.udpChecksumField(bytes)).isEqualTo(Checksums.udpChecksum(bytes));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 17, 64, 1024, 4095, 9000})
    void shouldWriteCorrectIpv6UdpChecksumComputedIndependently(int size) {
        byte[] bytes = FrameCodec.encode(Frames.ipv6(size));

        assertThat(Checksums.udpChecksumField(bytes))
                .isEqualTo(Checksums.udpChecksum(bytes))
                .isNotZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 1500, 9000})
    void shouldProduceFramesThatPcap4jParsesWithValidChecksums(int size) throws Exception {
        for (UdpFrame f : new UdpFrame[] {Frames.ipv4(size), Frames.ipv6(size)}) {
            byte[] bytes = FrameCodec.encode(f);
            EthernetPacket eth = EthernetPacket.newPacket(bytes, 0, bytes.length);
            UdpPacket udp = eth.get(UdpPacket.class);

            assertThat(udp).as("Pcap4J finds UDP in %s", f).isNotNull();
            assertThat(udp.hasValidChecksum(f.srcIp(), f.dstIp(), false)).isTrue();
            assertThat(udp.getHeader().getSrcPort().valueAsInt()).isEqualTo(f.srcPort());
            assertThat(udp.getHeader().getDstPort().valueAsInt()).isEqualTo(f.dstPort());
            assertThat(udp.getHeader().getLengthAsInt()).isEqualTo(8 + size);
            int tos = (f.dscp() << 2) | f.ecn().codepoint();
            if (f.isIpv6()) {
                IpV6Packet.IpV6Header ip = eth.get(IpV6Packet.class).getHeader();
                assertThat(ip.getTrafficClass().value() & 0xFF).isEqualTo(tos);
                assertThat(ip.getHopLimitAsInt()).isEqualTo(f.ttl());
                assertThat(ip.getPayloadLengthAsInt()).isEqualTo(8 + size);
            } else {
                IpV4Packet.IpV4Header ip = eth.get(IpV4Packet.class).getHeader();
                assertThat(ip.hasValidChecksum(false)).isTrue();
                assertThat(ip.getTos().value() & 0xFF).isEqualTo(tos);
                assertThat(ip.getTtlAsInt()).isEqualTo(f.ttl());
                assertThat(ip.getTotalLengthAsInt()).isEqualTo(20 + 8 + size);
            }
        }
    }

    @Test
    void shouldLayOutIpv4HeaderFields() {
        UdpFrame f =
                Frames.ipv4(10).toBuilder().dscp(0b101110).ecn(Ecn.CE).ttl(200).build();
        ByteBuffer b = ByteBuffer.wrap(FrameCodec.encode(f));

        assertThat(b.getShort(12)).isEqualTo((short) 0x0800);
        assertThat(b.get(14)).isEqualTo((byte) 0x45);
        assertThat(b.get(15) & 0xFF).isEqualTo(0b1011_1011); // DSCP 46 << 2 | CE
        assertThat(b.getShort(16)).isEqualTo((short) 38); // total length
        assertThat(b.getShort(20)).isEqualTo((short) 0x4000); // DF, not fragmented
        assertThat(b.get(22) & 0xFF).isEqualTo(200);
        assertThat(b.get(23)).isEqualTo((byte) 17);
        assertThat(b.limit()).isEqualTo(14 + 20 + 8 + 10);
    }

    @Test
    void shouldLayOutIpv6HeaderFields() {
        UdpFrame f = Frames.ipv6(10).toBuilder().dscp(0b000001).ecn(Ecn.ECT_0).build();
        ByteBuffer b = ByteBuffer.wrap(FrameCodec.encode(f));

        assertThat(b.getShort(12)).isEqualTo((short) 0x86DD);
        // version 6, traffic class 0b00000110, flow label 0
        assertThat(b.getInt(14)).isEqualTo(0x6000_0000 | (0b0000_0110 << 20));
        assertThat(b.getShort(18)).isEqualTo((short) 18);
        assertThat(b.get(20)).isEqualTo((byte) 17);
        assertThat(b.get(21) & 0xFF).isEqualTo(f.ttl());
        assertThat(b.limit()).isEqualTo(14 + 40 + 8 + 10);
    }

    @ParameterizedTest
    @EnumSource(Ecn.class)
    void shouldRoundTripEveryEcnValueInBothFamilies(Ecn ecn) throws Exception {
        for (UdpFrame f : new UdpFrame[] {Frames.ipv4(33), Frames.ipv6(33)}) {
            UdpFrame marked = f.toBuilder().ecn(ecn).dscp(63).build();

            DecodedFrame d = FrameCodec.decode(FrameCodec.encode(marked), marked.timestamp());

            assertThat(d.frame()).isEqualTo(marked);
            assertThat(d.frame().ecn()).isEqualTo(ecn);
            assertThat(d.frame().dscp()).isEqualTo(63);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1500, 9000, UdpFrame.MAX_IPV4_PAYLOAD})
    void shouldRoundTripIpv4FrameThroughCodec(int size) throws Exception {
        UdpFrame f = Frames.ipv4(size);

        DecodedFrame d = FrameCodec.decode(FrameCodec.encode(f), f.timestamp());

        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.ipChecksum()).isEqualTo(ChecksumVerdict.GOOD);
        assertThat(d.udpChecksum()).isEqualTo(ChecksumVerdict.GOOD);
        assertThat(d.checksumsOk()).isTrue();
        assertThat(d.trailingBytes()).isZero();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1500, 9000, UdpFrame.MAX_IPV6_PAYLOAD})
    void shouldRoundTripIpv6FrameThroughCodec(int size) throws Exception {
        UdpFrame f = Frames.ipv6(size);

        DecodedFrame d = FrameCodec.decode(FrameCodec.encode(f), f.timestamp());

        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.ipChecksum()).isEqualTo(ChecksumVerdict.ABSENT);
        assertThat(d.ipChecksumField()).isEqualTo(-1);
        assertThat(d.udpChecksum()).isEqualTo(ChecksumVerdict.GOOD);
        assertThat(d.checksumsOk()).isTrue();
    }

    @Test
    void shouldKeepIpv4MappedIpv6AddressesIpv6WhenDecoding() throws Exception {
        byte[] bytes = FrameCodec.encode(Frames.ipv6(4));
        byte[] mapped = InetAddress.getByName("2001:db8::1").getAddress();
        Arrays.fill(mapped, (byte) 0);
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        mapped[12] = 10;
        mapped[15] = 1;
        System.arraycopy(mapped, 0, bytes, 14 + 8, 16); // source ::ffff:10.0.0.1

        DecodedFrame d = FrameCodec.decode(bytes);

        assertThat(d.frame().isIpv6()).isTrue();
        assertThat(d.frame().srcIp().getAddress()).isEqualTo(mapped);
        assertThat(d.udpChecksumOk())
                .as("source changed, checksum no longer matches")
                .isFalse();
    }

    @Test
    void shouldTellAPseudoHeaderOnlyChecksumFromAWrongOne() throws Exception {
        // What a host leaves for checksum offload: the folded sum of the pseudo-header alone (no complement).
        byte[] bytes = FrameCodec.encode(Frames.ipv4(64));
        int udp = 14 + 20;
        long sum = 17 + (((bytes[udp + 4] & 0xFF) << 8) | (bytes[udp + 5] & 0xFF));
        for (int i = 26; i < 34; i += 2) {
            sum += ((bytes[i] & 0xFF) << 8) | (bytes[i + 1] & 0xFF);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        bytes[udp + 6] = (byte) (sum >>> 8);
        bytes[udp + 7] = (byte) sum;

        DecodedFrame partial = FrameCodec.decode(bytes);
        assertThat(partial.udpChecksum()).isEqualTo(ChecksumVerdict.PARTIAL);
        assertThat(partial.udpChecksumOk())
                .as("not a checksum a wire may carry")
                .isFalse();
        bytes[udp + 7] ^= 1;
        assertThat(FrameCodec.decode(bytes).udpChecksum()).isEqualTo(ChecksumVerdict.BAD);
    }

    @Test
    void shouldSendComputedZeroUdpChecksumAsAllOnes() throws Exception {
        // Search payloads until the computed UDP checksum is zero, which RFC 768 says to send as 0xFFFF.
        UdpFrame base = Frames.ipv4(0);
        for (int v = 0; v <= 0xFFFF; v++) {
            UdpFrame f = base.toBuilder()
                    .payload(new byte[] {(byte) (v >>> 8), (byte) v})
                    .build();
            byte[] bytes = FrameCodec.encode(f);
            if (Checksums.udpChecksumField(bytes) == 0xFFFF) {
                assertThat(Checksums.udpChecksum(bytes)).isEqualTo(0xFFFF);
                assertThat(FrameCodec.decode(bytes).udpChecksum()).isEqualTo(ChecksumVerdict.GOOD);
                byte[] corrupt = FrameCodec.encode(f, EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.CORRUPT));
                assertThat(FrameCodec.decode(corrupt).udpChecksum()).isEqualTo(ChecksumVerdict.BAD);
                return;
            }
        }
        throw new AssertionError("no two-byte payload gives a zero checksum");
    }

    @Test
    void shouldReportCorruptChecksumsAsBad() throws Exception {
        EncodeOptions corrupt = EncodeOptions.DEFAULT
                .withUdpChecksum(ChecksumMode.CORRUPT)
                .withIpv4HeaderChecksum(ChecksumMode.CORRUPT);
        for (int size : new int[] {0, 1, 100, 9000}) {
            DecodedFrame v4 = FrameCodec.decode(FrameCodec.encode(Frames.ipv4(size), corrupt));
            DecodedFrame v6 = FrameCodec.decode(FrameCodec.encode(Frames.ipv6(size), corrupt));

            assertThat(v4.ipChecksum()).isEqualTo(ChecksumVerdict.BAD);
            assertThat(v4.udpChecksum()).isEqualTo(ChecksumVerdict.BAD);
            assertThat(v4.udpChecksumField()).isNotZero().isNotEqualTo(0xFFFF);
            assertThat(v6.ipChecksumOk()).isTrue();
            assertThat(v6.udpChecksum()).isEqualTo(ChecksumVerdict.BAD);
            assertThat(v6.checksumsOk()).isFalse();
        }
    }

    @Test
    void shouldCorruptOnlyTheChosenChecksum() throws Exception {
        DecodedFrame d = FrameCodec.decode(
                FrameCodec.encode(Frames.ipv4(50), EncodeOptions.DEFAULT.withIpv4HeaderChecksum(ChecksumMode.CORRUPT)));

        assertThat(d.ipChecksumOk()).isFalse();
        assertThat(d.udpChecksumOk()).isTrue();
        assertThat(d.frame()).isEqualTo(Frames.ipv4(50).withTimestamp(java.time.Instant.EPOCH));
    }

    @Test
    void shouldAcceptZeroUdpChecksumOverIpv4AsAbsent() throws Exception {
        byte[] bytes = FrameCodec.encode(Frames.ipv4(20), EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.ZERO));

        DecodedFrame d = FrameCodec.decode(bytes);

        assertThat(Checksums.udpChecksumField(bytes)).isZero();
        assertThat(d.udpChecksum()).isEqualTo(ChecksumVerdict.ABSENT);
        assertThat(d.udpChecksumOk()).isTrue();
        assertThat(d.ipChecksum()).isEqualTo(ChecksumVerdict.GOOD);
    }

    @Test
    void shouldEmitZeroUdpChecksumOverIpv6OnPurposeAndReportItBad() throws Exception {
        // Draft clause 4.1.6: a receiver must drop this, so the tester must be able to send it.
        byte[] bytes = FrameCodec.encode(Frames.ipv6(20), EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.ZERO));

        DecodedFrame d = FrameCodec.decode(bytes);

        assertThat(Checksums.udpChecksumField(bytes)).isZero();
        assertThat(d.udpChecksum()).isEqualTo(ChecksumVerdict.BAD);
    }

    @Test
    void shouldPadToMinimumFrameAndIgnorePaddingOnDecode() throws Exception {
        UdpFrame f = Frames.ipv4(0);
        byte[] bytes = FrameCodec.encode(f, EncodeOptions.DEFAULT.withPadToMinimumFrame(true));

        DecodedFrame d = FrameCodec.decode(bytes, f.timestamp());

        assertThat(bytes).hasSize(60);
        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.trailingBytes()).isEqualTo(60 - 42);
        assertThat(d.checksumsOk()).isTrue();
    }

    @Test
    void shouldEmitWrongIpLengthOnPurposeWithAValidHeaderChecksum() {
        byte[] bytes = FrameCodec.encode(Frames.ipv4(10), EncodeOptions.DEFAULT.withIpLength(1500));

        assertThat(ByteBuffer.wrap(bytes).getShort(16)).isEqualTo((short) 1500);
        // The header checksum covers the wrong length, so only the length is at fault.
        assertThat(Checksums.ipv4HeaderChecksumField(bytes)).isEqualTo(Checksums.ipv4HeaderChecksum(bytes));
        assertThatThrownBy(() -> FrameCodec.decode(bytes))
                .isInstanceOfSatisfying(FrameDecodeException.class, e -> {
                    assertThat(e.field()).isEqualTo("ipv4.totalLength");
                    assertThat(e.actual()).isEqualTo(1500);
                })
                .hasMessageContaining("ipv4.totalLength = 1500");
    }

    @Test
    void shouldRejectWrongUdpLengthNamingTheField() {
        byte[] bytes = FrameCodec.encode(Frames.ipv6(10), EncodeOptions.DEFAULT.withUdpLength(9));

        assertThatThrownBy(() -> FrameCodec.decode(bytes)).isInstanceOfSatisfying(FrameDecodeException.class, e -> {
            assertThat(e.field()).isEqualTo("udp.length");
            assertThat(e.actual()).isEqualTo(9);
            assertThat(e.expected()).contains("18");
        });
    }

    @Test
    void shouldRejectIpv6PayloadLengthBeyondFrame() {
        byte[] bytes = FrameCodec.encode(Frames.ipv6(10), EncodeOptions.DEFAULT.withIpLength(19));

        assertThatThrownBy(() -> FrameCodec.decode(bytes))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class, e -> assertThat(e.field()).isEqualTo("ipv6.payloadLength"));
    }

    @Test
    void shouldRejectNonIpFrame() {
        byte[] arp = FrameCodec.encode(Frames.ipv4(28));
        arp[12] = 0x08;
        arp[13] = 0x06;

        assertThatThrownBy(() -> FrameCodec.decode(arp))
                .isInstanceOfSatisfying(FrameDecodeException.class, e -> {
                    assertThat(e.field()).isEqualTo("ethernet.etherType");
                    assertThat(e.actual()).isEqualTo(0x0806);
                })
                .hasMessageContaining("0x806");
    }

    @Test
    void shouldRejectVlanTaggedFrame() {
        byte[] tagged = FrameCodec.encode(Frames.ipv4(28));
        tagged[12] = (byte) 0x81;
        tagged[13] = 0x00;

        assertThatThrownBy(() -> FrameCodec.decode(tagged))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class, e -> assertThat(e.field()).isEqualTo("ethernet.etherType"));
    }

    @Test
    void shouldRejectNonUdpIpv4AndIpv6() {
        byte[] tcp4 = FrameCodec.encode(Frames.ipv4(28));
        tcp4[14 + 9] = 6;
        byte[] tcp6 = FrameCodec.encode(Frames.ipv6(28));
        tcp6[14 + 6] = 6;

        assertThatThrownBy(() -> FrameCodec.decode(tcp4))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class, e -> assertThat(e.field()).isEqualTo("ipv4.protocol"));
        assertThatThrownBy(() -> FrameCodec.decode(tcp6)).isInstanceOfSatisfying(FrameDecodeException.class, e -> {
            assertThat(e.field()).isEqualTo("ipv6.nextHeader");
            assertThat(e.actual()).isEqualTo(6);
        });
    }

    @Test
    void shouldRejectIpv4Fragment() {
        byte[] frag = FrameCodec.encode(Frames.ipv4(28));
        frag[14 + 6] = 0x20; // MF

        assertThatThrownBy(() -> FrameCodec.decode(frag))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class,
                        e -> assertThat(e.field()).isEqualTo("ipv4.flagsAndFragmentOffset"));
    }

    @Test
    void shouldRejectBadIpv4VersionAndIhl() {
        byte[] v5 = FrameCodec.encode(Frames.ipv4(28));
        v5[14] = 0x55;
        byte[] ihl4 = FrameCodec.encode(Frames.ipv4(28));
        ihl4[14] = 0x44;

        assertThatThrownBy(() -> FrameCodec.decode(v5))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class, e -> assertThat(e.field()).isEqualTo("ipv4.version"));
        assertThatThrownBy(() -> FrameCodec.decode(ihl4))
                .isInstanceOfSatisfying(
                        FrameDecodeException.class, e -> assertThat(e.field()).isEqualTo("ipv4.ihl"));
    }

    @Test
    void shouldSkipIpv4OptionsWhenDecoding() throws Exception {
        UdpFrame f = Frames.ipv4(12);
        byte[] plain = FrameCodec.encode(f);
        // Insert 4 bytes of options (NOP NOP NOP EOL) and fix IHL, total length and the header checksum.
        byte[] withOptions = new byte[plain.length + 4];
        System.arraycopy(plain, 0, withOptions, 0, 34);
        withOptions[34] = 1;
        withOptions[35] = 1;
        withOptions[36] = 1;
        withOptions[37] = 0;
        System.arraycopy(plain, 34, withOptions, 38, plain.length - 34);
        withOptions[14] = 0x46;
        ByteBuffer.wrap(withOptions).putShort(16, (short) (20 + 4 + 8 + 12)).putShort(24, (short) 0);
        ByteBuffer.wrap(withOptions).putShort(24, (short) Checksums.ipv4HeaderChecksum(withOptions));

        DecodedFrame d = FrameCodec.decode(withOptions, f.timestamp());

        assertThat(d.frame()).isEqualTo(f);
        assertThat(d.checksumsOk()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 13, 14, 20, 33, 41})
    void shouldRejectTruncatedIpv4Frame(int length) {
        byte[] cut = Arrays.copyOf(FrameCodec.encode(Frames.ipv4(100)), length);

        assertThatThrownBy(() -> FrameCodec.decode(cut))
                .isInstanceOf(FrameDecodeException.class)
                .hasMessageContaining("expected");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 13, 14, 53, 54, 61, 100})
    void shouldRejectTruncatedIpv6Frame(int length) {
        byte[] cut = Arrays.copyOf(FrameCodec.encode(Frames.ipv6(100)), length);

        assertThatThrownBy(() -> FrameCodec.decode(cut)).isInstanceOf(FrameDecodeException.class);
    }

    @Test
    void shouldRejectMixedFamiliesAndOutOfRangeFields() {
        assertThatThrownBy(
                        () -> UdpFrame.builder().ips("10.0.0.1", "2001:db8::1").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("same family");
        assertThatThrownBy(() -> UdpFrame.builder().dscp(64).build()).hasMessageContaining("dscp");
        assertThatThrownBy(() -> UdpFrame.builder().srcPort(65_536).build()).hasMessageContaining("srcPort");
        assertThatThrownBy(() -> UdpFrame.builder().ttl(-1).build()).hasMessageContaining("ttl");
        assertThatThrownBy(() -> UdpFrame.builder()
                        .payload(new byte[UdpFrame.MAX_IPV4_PAYLOAD + 1])
                        .build())
                .hasMessageContaining("IPv4 maximum");
        assertThatThrownBy(() -> UdpFrame.builder().ips("example.com", "10.0.0.1"))
                .hasMessageContaining("not an IP address literal");
    }

    @Test
    void shouldHaveSensibleDefaults() {
        UdpFrame f = UdpFrame.builder().build();

        assertThat(f.srcMac().isLocallyAdministered()).isTrue();
        assertThat(f.dstMac().isLocallyAdministered()).isTrue();
        assertThat(f.srcMac().isMulticast()).isFalse();
        assertThat(f.ttl()).isEqualTo(64);
        assertThat(f.dstPort()).isEqualTo(4796);
        assertThat(f.ecn()).isEqualTo(Ecn.NOT_ECT);
        assertThat(f.isIpv6()).isFalse();
        assertThat(UdpFrame.builder().ipv6Defaults().build().isIpv6()).isTrue();
        assertThat(f.payload().isReadOnly()).isTrue();
        assertThat(f.payloadLength()).isZero();
    }

    @Test
    void shouldNotLetCallersMutateThePayload() {
        byte[] p = {1, 2, 3};
        UdpFrame f = UdpFrame.builder().payload(p).build();
        p[0] = 9;
        f.payloadBytes()[1] = 9;

        assertThat(f.payloadBytes()).containsExactly(1, 2, 3);
    }

    @Test
    void shouldParseAndPrintMacAddresses() {
        MacAddress m = MacAddress.parse("02:AB:cd:00:10:ff");

        assertThat(m.toString()).isEqualTo("02:ab:cd:00:10:ff");
        assertThat(m.toBytes()).containsExactly(0x02, 0xab, 0xcd, 0x00, 0x10, 0xff);
        assertThat(MacAddress.of(m.toBytes())).isEqualTo(m);
        assertThatThrownBy(() -> MacAddress.parse("02:ab:cd")).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.mrconf.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UdpFramingTest {
    private static final byte[] MAC_A = {0x02, 0, 0, 0, 0, 1};
    private static final byte[] MAC_B = {0x02, 0, 0, 0, 0, 2};
    private static final byte[] ABC = "abc".getBytes(StandardCharsets.US_ASCII);
    private static final int UDP_CHECKSUM_V4 = UdpFraming.ETHERNET_HEADER + 20 + 6;
    private static final int UDP_CHECKSUM_V6 = UdpFraming.ETHERNET_HEADER + 40 + 6;

    private final UdpFraming strict = new UdpFraming(UdpFraming.Rules.STRICT);

    @Test
    void shouldComputeTheRfc768ChecksumWithThePseudoHeader() throws Exception {
        // Expected values worked out independently (a one's-complement sum over pseudo-header, header and payload).
        assertThat(checksumAt(frame(strict, "192.0.2.1", "192.0.2.2", ABC), UDP_CHECKSUM_V4))
                .isEqualTo(0xE4B4);
        assertThat(checksumAt(frame(strict, "2001:db8::1", "2001:db8::2", ABC), UDP_CHECKSUM_V6))
                .isEqualTo(0x0D44);
    }

    @Test
    void shouldDecodeWhatItEncodesOverBothFamilies() throws Exception {
        for (final String[] pair : new String[][] {{"192.0.2.1", "192.0.2.2"}, {"2001:db8::1", "2001:db8::2"}}) {
            final byte[] frame = frame(strict, pair[0], pair[1], ABC);
            final UdpFraming.Decoded decoded = strict.decode(frame);
            assertThat(decoded.drop()).as(pair[0]).isNull();
            final UdpFraming.Received datagram = decoded.datagram();
            assertThat(datagram.source()).isEqualTo(InetAddress.getByName(pair[0]));
            assertThat(datagram.sourcePort()).isEqualTo(49152);
            assertThat(datagram.destinationPort()).isEqualTo(4796);
            assertThat(datagram.ecn()).isEqualTo(2);
            assertThat(ByteBuffer.wrap(frame, datagram.payloadOffset(), datagram.payloadLength()))
                    .isEqualTo(ByteBuffer.wrap(ABC));
        }
    }

    @Test
    void shouldAcceptAZeroChecksumOverIpv4AndDropItOverIpv6() throws Exception {
        final byte[] v4 = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        putChecksum(v4, UDP_CHECKSUM_V4, 0);
        final byte[] v6 = frame(strict, "2001:db8::1", "2001:db8::2", ABC);
        putChecksum(v6, UDP_CHECKSUM_V6, 0);

        assertThat(strict.decode(v4).drop()).isNull();
        assertThat(strict.decode(v6).drop()).isEqualTo(UdpFraming.Drop.UDP_CHECKSUM);
    }

    @Test
    void shouldDropAWrongUdpOrIpHeaderChecksum() throws Exception {
        final byte[] payloadFlipped = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        payloadFlipped[payloadFlipped.length - 1] ^= 1;
        final byte[] headerFlipped = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        headerFlipped[UdpFraming.ETHERNET_HEADER + 8] ^= 1; // the TTL: the IPv4 header checksum no longer holds
        final byte[] v6Flipped = frame(strict, "2001:db8::1", "2001:db8::2", ABC);
        v6Flipped[v6Flipped.length - 1] ^= 1;

        assertThat(strict.decode(payloadFlipped).drop()).isEqualTo(UdpFraming.Drop.UDP_CHECKSUM);
        assertThat(strict.decode(headerFlipped).drop()).isEqualTo(UdpFraming.Drop.IP_CHECKSUM);
        assertThat(strict.decode(v6Flipped).drop()).isEqualTo(UdpFraming.Drop.UDP_CHECKSUM);
    }

    @Test
    void shouldSendAllOnesForAComputedZero() throws Exception {
        // A payload chosen so that the sum comes to 0xFFFF: its checksum field must read 0xFFFF, never 0.
        final byte[] probe = frame(strict, "192.0.2.1", "192.0.2.2", new byte[] {0, 0});
        final int complement = checksumAt(probe, UDP_CHECKSUM_V4);
        final byte[] zeroing = {(byte) (complement >> 8), (byte) complement};
        final byte[] frame = frame(strict, "192.0.2.1", "192.0.2.2", zeroing);

        assertThat(checksumAt(frame, UDP_CHECKSUM_V4)).isEqualTo(0xFFFF);
        assertThat(strict.decode(frame).drop()).isNull();
    }

    @Test
    void shouldBendTheRulesOnlyAsEachDefectSays() throws Exception {
        final byte[] wrong = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        wrong[wrong.length - 1] ^= 1;
        final byte[] zeroV4 = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        putChecksum(zeroV4, UDP_CHECKSUM_V4, 0);
        final byte[] zeroV6 = frame(strict, "2001:db8::1", "2001:db8::2", ABC);
        putChecksum(zeroV6, UDP_CHECKSUM_V6, 0);

        assertThat(new UdpFraming(new UdpFraming.Rules(true, false, false, false, false))
                        .decode(wrong)
                        .drop())
                .isNull();
        assertThat(new UdpFraming(new UdpFraming.Rules(false, true, false, false, false))
                        .decode(zeroV4)
                        .drop())
                .isEqualTo(UdpFraming.Drop.UDP_CHECKSUM);
        assertThat(new UdpFraming(new UdpFraming.Rules(false, false, true, false, false))
                        .decode(zeroV6)
                        .drop())
                .isNull();
        final UdpFraming omitting = new UdpFraming(new UdpFraming.Rules(false, false, false, true, false));
        assertThat(checksumAt(frame(omitting, "2001:db8::1", "2001:db8::2", ABC), UDP_CHECKSUM_V6))
                .isZero();
        final UdpFraming noPseudo = new UdpFraming(new UdpFraming.Rules(false, false, false, false, true));
        assertThat(strict.decode(frame(noPseudo, "192.0.2.1", "192.0.2.2", ABC)).drop())
                .isEqualTo(UdpFraming.Drop.UDP_CHECKSUM);
    }

    @Test
    void shouldDropMalformedFramesWithoutThrowing() throws Exception {
        final byte[] good = frame(strict, "192.0.2.1", "192.0.2.2", ABC);
        final byte[] notUdp = good.clone();
        notUdp[UdpFraming.ETHERNET_HEADER + 9] = 6; // TCP
        assertThat(strict.decode(notUdp).drop()).isEqualTo(UdpFraming.Drop.NOT_UDP);
        assertThat(strict.decode(new byte[10]).drop()).isEqualTo(UdpFraming.Drop.MALFORMED);
        for (int cut = 0; cut < good.length; cut++) {
            assertThat(strict.decode(java.util.Arrays.copyOf(good, cut)).drop()).isNotNull();
        }
        final SplittableRandom random = new SplittableRandom(416);
        for (int i = 0; i < 20_000; i++) {
            final byte[] noise = good.clone();
            noise[random.nextInt(noise.length)] = (byte) random.nextInt(256);
            noise[random.nextInt(UdpFraming.ETHERNET_HEADER + 28)] = (byte) random.nextInt(256);
            strict.decode(noise); // never throws: a verdict or a drop
        }
    }

    private static byte[] frame(
            final UdpFraming framing, final String source, final String destination, final byte[] payload)
            throws Exception {
        return framing.encode(
                MAC_A,
                MAC_B,
                InetAddress.getByName(source),
                InetAddress.getByName(destination),
                49152,
                4796,
                2,
                ByteBuffer.wrap(payload),
                0,
                payload.length);
    }

    private static int checksumAt(final byte[] frame, final int offset) {
        return ((frame[offset] & 0xFF) << 8) | (frame[offset + 1] & 0xFF);
    }

    private static void putChecksum(final byte[] frame, final int offset, final int value) {
        frame[offset] = (byte) (value >> 8);
        frame[offset + 1] = (byte) value;
    }
}

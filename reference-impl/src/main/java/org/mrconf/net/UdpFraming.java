package org.mrconf.net;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The reference's own Ethernet II / IPv4 or IPv6 / UDP framing, for a device that sees whole frames below any host
 * stack, as a NIC does: it builds the frames it sends and checks the IP header checksum and the UDP checksum of the
 * frames it receives by spec clause 4.1.6 (over IPv4 a zero UDP checksum means "none" and is accepted, a wrong
 * non-zero one is dropped; over IPv6 zero and wrong are both dropped). The reference shares no framing code with the
 * suite on purpose: the suite's codec judges this one.
 *
 * <p>Not a hot path: only the embedded reference's frame configurations use it, and decoding makes the source
 * address object of each frame.
 */
public final class UdpFraming {
    /** Ethernet II header: two MACs and the EtherType. */
    public static final int ETHERNET_HEADER = 14;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    private static final int UDP_HEADER = 8;
    private static final int PROTOCOL_UDP = 17;
    private static final int HOP_LIMIT = 64;

    /** Why a received frame was dropped, each with its own counter. */
    public enum Drop {
        /** Too short, not IPv4 or IPv6, lengths that disagree, fragments or IPv4 options: nothing a peer sends. */
        MALFORMED,
        /** An IP packet that is not UDP. */
        NOT_UDP,
        /** A wrong IPv4 header checksum. */
        IP_CHECKSUM,
        /** A wrong non-zero UDP checksum, or (over IPv6) a zero one. */
        UDP_CHECKSUM
    }

    /**
     * Where the checker departs from clause 4.1.6, for self-validation; {@link #STRICT} is the conforming reference.
     *
     * @param acceptWrongUdpChecksum  accepts a wrong non-zero UDP checksum (defect udp-checksum-unchecked)
     * @param dropZeroOverIpv4        drops a zero UDP checksum over IPv4 (defect ipv4-zero-udp-checksum-dropped)
     * @param acceptZeroOverIpv6      accepts a zero UDP checksum over IPv6 (defect ipv6-zero-udp-checksum-accepted)
     * @param sendZeroOverIpv6        sends a zero UDP checksum over IPv6 (defect ipv6-udp-checksum-omitted)
     * @param sendWithoutPseudoHeader computes the UDP checksum without the IP pseudo-header (defect
     *                                udp-checksum-without-pseudo-header)
     */
    public record Rules(
            boolean acceptWrongUdpChecksum,
            boolean dropZeroOverIpv4,
            boolean acceptZeroOverIpv6,
            boolean sendZeroOverIpv6,
            boolean sendWithoutPseudoHeader) {
        public static final Rules STRICT = new Rules(false, false, false, false, false);
    }

    /**
     * A frame that passed every check: the IP source, the UDP ports, the IP ECN field and where the UDP payload lies
     * in the frame.
     */
    public record Received(
            InetAddress source, int sourcePort, int destinationPort, int ecn, int payloadOffset, int payloadLength) {}

    /** What {@link #decode} found: a datagram, or the reason it was dropped. */
    public record Decoded(Received datagram, Drop drop) {
        static Decoded dropped(final Drop drop) {
            return new Decoded(null, drop);
        }
    }

    private final Rules rules;

    public UdpFraming(final Rules rules) {
        this.rules = rules;
    }

    /**
     * Builds one frame: Ethernet II, then IPv4 (no options, DF set) or IPv6 by the addresses' family, then UDP with
     * its checksum (computed over both families, as a host stack does), then {@code payload}.
     */
    public byte[] encode(
            final byte[] sourceMac,
            final byte[] destinationMac,
            final InetAddress source,
            final InetAddress destination,
            final int sourcePort,
            final int destinationPort,
            final int ecn,
            final ByteBuffer payload,
            final int offset,
            final int length) {
        final boolean ipv6 = source instanceof Inet6Address;
        final int ipHeader = ipv6 ? IPV6_HEADER : IPV4_HEADER;
        final int udpLength = UDP_HEADER + length;
        final byte[] frame = new byte[ETHERNET_HEADER + ipHeader + udpLength];
        final ByteBuffer out = ByteBuffer.wrap(frame);
        out.put(destinationMac).put(sourceMac).putShort((short) (ipv6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4));
        if (ipv6) {
            out.putInt((6 << 28) | ((ecn & 3) << 20));
            out.putShort((short) udpLength).put((byte) PROTOCOL_UDP).put((byte) HOP_LIMIT);
            out.put(source.getAddress()).put(destination.getAddress());
        } else {
            out.put((byte) 0x45).put((byte) (ecn & 3)).putShort((short) (IPV4_HEADER + udpLength));
            out.putShort((short) 0).putShort((short) 0x4000); // id 0, don't fragment
            out.put((byte) HOP_LIMIT).put((byte) PROTOCOL_UDP).putShort((short) 0);
            out.put(source.getAddress()).put(destination.getAddress());
            out.putShort(ETHERNET_HEADER + 10, (short) ~sum(frame, ETHERNET_HEADER, IPV4_HEADER, 0));
        }
        final int udp = ETHERNET_HEADER + ipHeader;
        out.putShort((short) sourcePort).putShort((short) destinationPort).putShort((short) udpLength);
        out.putShort((short) 0);
        payload.get(offset, frame, udp + UDP_HEADER, length);
        if (!(ipv6 && rules.sendZeroOverIpv6())) {
            final int pseudo = rules.sendWithoutPseudoHeader() ? 0 : pseudoHeaderSum(frame, ipv6, udpLength);
            final int checksum = ~sum(frame, udp, udpLength, pseudo) & 0xFFFF;
            out.putShort(udp + 6, (short) (checksum == 0 ? 0xFFFF : checksum)); // RFC 768: zero goes as all ones
        }
        return frame;
    }

    /** Parses and checks one received frame (clause 4.1.6's rules, as {@link Rules} bend them). */
    public Decoded decode(final byte[] frame) {
        if (frame.length < ETHERNET_HEADER + IPV4_HEADER + UDP_HEADER) {
            return Decoded.dropped(Drop.MALFORMED);
        }
        final ByteBuffer in = ByteBuffer.wrap(frame);
        final int etherType = in.getShort(12) & 0xFFFF;
        final boolean ipv6;
        final int ipHeader;
        final int udpLength;
        final int ecn;
        if (etherType == ETHERTYPE_IPV4) {
            ipv6 = false;
            ipHeader = IPV4_HEADER;
            final int ip = ETHERNET_HEADER;
            final int totalLength = in.getShort(ip + 2) & 0xFFFF;
            if (in.get(ip) != 0x45
                    || totalLength < IPV4_HEADER + UDP_HEADER
                    || ip + totalLength > frame.length
                    || (in.getShort(ip + 6) & 0x3FFF) != 0) {
                return Decoded.dropped(Drop.MALFORMED); // options, a fragment, or a length past the frame
            }
            if (frame[ip + 9] != PROTOCOL_UDP) {
                return Decoded.dropped(Drop.NOT_UDP);
            }
            if ((sum(frame, ip, IPV4_HEADER, 0) & 0xFFFF) != 0xFFFF) {
                return Decoded.dropped(Drop.IP_CHECKSUM);
            }
            ecn = frame[ip + 1] & 3;
            udpLength = totalLength - IPV4_HEADER;
        } else if (etherType == ETHERTYPE_IPV6 && frame.length >= ETHERNET_HEADER + IPV6_HEADER + UDP_HEADER) {
            ipv6 = true;
            ipHeader = IPV6_HEADER;
            final int ip = ETHERNET_HEADER;
            if ((frame[ip] & 0xF0) != 0x60) {
                return Decoded.dropped(Drop.MALFORMED);
            }
            if (frame[ip + 6] != PROTOCOL_UDP) {
                return Decoded.dropped(Drop.NOT_UDP); // extension headers too: a peer sends none
            }
            udpLength = in.getShort(ip + 4) & 0xFFFF;
            if (udpLength < UDP_HEADER || ip + IPV6_HEADER + udpLength > frame.length) {
                return Decoded.dropped(Drop.MALFORMED);
            }
            ecn = (in.getShort(ip) >> 4) & 3;
        } else {
            return Decoded.dropped(Drop.MALFORMED);
        }
        final int udp = ETHERNET_HEADER + ipHeader;
        if ((in.getShort(udp + 4) & 0xFFFF) != udpLength) {
            return Decoded.dropped(Drop.MALFORMED);
        }
        final int checksum = in.getShort(udp + 6) & 0xFFFF;
        if (checksum == 0) {
            if (ipv6 ? !rules.acceptZeroOverIpv6() : rules.dropZeroOverIpv4()) {
                return Decoded.dropped(Drop.UDP_CHECKSUM);
            }
        } else if ((sum(frame, udp, udpLength, pseudoHeaderSum(frame, ipv6, udpLength)) & 0xFFFF) != 0xFFFF
                && !rules.acceptWrongUdpChecksum()) {
            return Decoded.dropped(Drop.UDP_CHECKSUM);
        }
        final int addressOffset = ETHERNET_HEADER + (ipv6 ? 8 : 12);
        final InetAddress source;
        try {
            source =
                    InetAddress.getByAddress(Arrays.copyOfRange(frame, addressOffset, addressOffset + (ipv6 ? 16 : 4)));
        } catch (final UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes: cannot happen
        }
        return new Decoded(
                new Received(
                        source,
                        in.getShort(udp) & 0xFFFF,
                        in.getShort(udp + 2) & 0xFFFF,
                        ecn,
                        udp + UDP_HEADER,
                        udpLength - UDP_HEADER),
                null);
    }

    /** The ones'-complement sum of the pseudo-header: the two addresses, the protocol and the UDP length. */
    private static int pseudoHeaderSum(final byte[] frame, final boolean ipv6, final int udpLength) {
        final int addresses = ETHERNET_HEADER + (ipv6 ? 8 : 12);
        return sum(frame, addresses, ipv6 ? 32 : 8, PROTOCOL_UDP + udpLength);
    }

    /** The folded 16-bit ones'-complement sum of {@code length} bytes from {@code offset}, plus {@code initial}. */
    private static int sum(final byte[] bytes, final int offset, final int length, final int initial) {
        long sum = initial;
        int i = offset;
        final int end = offset + length;
        for (; i + 1 < end; i += 2) {
            sum += ((bytes[i] & 0xFF) << 8) | (bytes[i + 1] & 0xFF);
        }
        if (i < end) {
            sum += (bytes[i] & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }
}

package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * Encodes a {@link UdpFrame} to Ethernet II bytes (IPv4 or IPv6, UDP) and decodes such bytes back, verifying
 * checksums.
 *
 * <p><b>Why hand-written headers, not Pcap4J builders.</b> The headers are fixed layouts of 42 (IPv4) or 62
 * (IPv6) bytes, so writing them over a {@link ByteBuffer} takes fewer lines than the builder chains. More
 * importantly, a conformance tester must emit <em>wrong</em> checksums and lengths on purpose, which Pcap4J's
 * builders ({@code correctChecksumAtBuild}, {@code correctLengthAtBuild}) are designed to prevent, and decoding
 * must name the bad field and keep going past a bad checksum, where Pcap4J's factories fall back to an
 * {@code IllegalRawDataPacket} or {@code UnknownPacket} and lose that information. The tests check the bytes
 * against a hand computation, Pcap4J's own parser and checksum checks, and tshark.
 *
 * <p>Encoded frames carry no 802.1Q tag and no FCS; IPv4 headers have no options, DF set and identification 0;
 * IPv6 headers have flow label 0 and no extension headers (draft clause 4.1.2). Decoding rejects VLAN-tagged
 * frames, IPv4 fragments and IPv6 extension headers with a {@link FrameDecodeException}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class FrameCodec {

    static final int ETHERNET_HEADER = 14;
    static final int IPV4_HEADER = 20;
    static final int IPV6_HEADER = 40;
    static final int UDP_HEADER = 8;
    /** Minimum Ethernet frame without the 4-byte FCS. */
    static final int MIN_FRAME = 60;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86DD;
    private static final int PROTO_UDP = 17;
    /** IPv4 flags/fragment-offset word with only DF set: MetaRoCE must not be fragmented in flight. */
    private static final int IPV4_DF = 0x4000;

    private FrameCodec() {}

    /** A well-formed frame: correct lengths and checksums. */
    public static byte[] encode(UdpFrame frame) {
        return encode(frame, EncodeOptions.DEFAULT);
    }

    /** A frame with lengths, checksums and padding as {@code options} say (possibly malformed on purpose). */
    public static byte[] encode(UdpFrame frame, EncodeOptions options) {
        boolean v6 = frame.isIpv6();
        byte[] payload = frame.payloadArray();
        int ipHeader = v6 ? IPV6_HEADER : IPV4_HEADER;
        int udpLength = UDP_HEADER + payload.length;
        int ipLength = ipHeader + udpLength;
        int used = ETHERNET_HEADER + ipLength;
        byte[] out = new byte[options.padToMinimumFrame() ? Math.max(MIN_FRAME, used) : used];
        ByteBuffer b = ByteBuffer.wrap(out); // big-endian: network order

        b.put(frame.dstMac().toBytes()).put(frame.srcMac().toBytes()).putShort((short)
                (v6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4));
        int trafficClass = (frame.dscp() << 2) | frame.ecn().codepoint();
        byte[] src = frame.srcIp().getAddress();
        byte[] dst = frame.dstIp().getAddress();
        if (v6) {
            b.putInt((6 << 28) | (trafficClass << 20)); // version, traffic class, flow label 0
            b.putShort((short) options.ipLength().orElse(udpLength));
            b.put((byte) PROTO_UDP).put((byte) frame.ttl()).put(src).put(dst);
        } else {
            b.put((byte) 0x45).put((byte) trafficClass); // version 4, IHL 5 words
            b.putShort((short) options.ipLength().orElse(ipLength));
            b.putShort((short) 0).putShort((short) IPV4_DF);
            b.put((byte) frame.ttl())
                    .put((byte) PROTO_UDP)
                    .putShort((short) 0)
                    .put(src)
                    .put(dst);
            int correct = finish(sum(out, ETHERNET_HEADER, IPV4_HEADER, 0));
            putU16(out, ETHERNET_HEADER + 10, apply(options.ipv4HeaderChecksum(), correct));
        }

        int udp = ETHERNET_HEADER + ipHeader;
        b.putShort((short) frame.srcPort()).putShort((short) frame.dstPort());
        b.putShort((short) options.udpLength().orElse(udpLength))
                .putShort((short) 0)
                .put(payload);
        int correct = finish(sum(out, udp, udpLength, pseudoHeaderSum(src, dst, udpLength)));
        // RFC 768: a computed zero is sent as all ones, because zero on the wire means "no checksum".
        putU16(out, udp + 6, apply(options.udpChecksum(), correct == 0 ? 0xFFFF : correct));
        return out;
    }

    /** Decodes with a timestamp of the epoch (for frames that never were in a capture). */
    public static DecodedFrame decode(byte[] frame) throws FrameDecodeException {
        return decode(frame, Instant.EPOCH);
    }

    /**
     * Decodes an Ethernet II frame carrying IPv4 or IPv6 and UDP. Bytes after the IP packet (padding, FCS) are
     * counted, not decoded. Bad checksums do not throw: they are reported in the result.
     *
     * @throws FrameDecodeException if the frame is not IP, not UDP, truncated, or its lengths disagree
     */
    public static DecodedFrame decode(byte[] frame, Instant timestamp) throws FrameDecodeException {
        int n = frame.length;
        if (n < ETHERNET_HEADER) {
            throw new FrameDecodeException(
                    "ethernet.frameLength",
                    n,
                    "at least " + ETHERNET_HEADER + " bytes for an Ethernet header (frame truncated)");
        }
        int etherType = u16(frame, 12);
        if (etherType != ETHERTYPE_IPV4 && etherType != ETHERTYPE_IPV6) {
            throw new FrameDecodeException(
                    "ethernet.etherType",
                    etherType,
                    "0x0800 (IPv4) or 0x86dd (IPv6); VLAN tags and other protocols are not MetaRoCE frames");
        }
        UdpFrame.Builder out = UdpFrame.builder()
                .timestamp(timestamp)
                .dstMac(MacAddress.of(frame, 0))
                .srcMac(MacAddress.of(frame, 6));
        int ip = ETHERNET_HEADER;
        int available = n - ip;
        boolean v6 = etherType == ETHERTYPE_IPV6;
        int ipHeader;
        int ipEnd;
        int trafficClass;
        ChecksumVerdict ipVerdict;
        int ipChecksumField;
        byte[] src;
        byte[] dst;
        if (v6) {
            require("ipv6.header", available, IPV6_HEADER);
            int version = (frame[ip] & 0xFF) >>> 4;
            if (version != 6) {
                throw new FrameDecodeException("ipv6.version", version, "6 (EtherType says IPv6)");
            }
            trafficClass = (u16(frame, ip) >>> 4) & 0xFF;
            int payloadLength = u16(frame, ip + 4);
            int nextHeader = frame[ip + 6] & 0xFF;
            if (nextHeader != PROTO_UDP) {
                throw new FrameDecodeException(
                        "ipv6.nextHeader", nextHeader, PROTO_UDP + " (UDP, with no extension headers)");
            }
            if (payloadLength > available - IPV6_HEADER) {
                throw new FrameDecodeException(
                        "ipv6.payloadLength",
                        payloadLength,
                        "at most " + (available - IPV6_HEADER)
                                + ", the bytes after the IPv6 header (frame truncated?)");
            }
            out.ttl(frame[ip + 7] & 0xFF);
            src = Arrays.copyOfRange(frame, ip + 8, ip + 24);
            dst = Arrays.copyOfRange(frame, ip + 24, ip + 40);
            ipHeader = IPV6_HEADER;
            ipEnd = ip + IPV6_HEADER + payloadLength;
            ipVerdict = ChecksumVerdict.ABSENT;
            ipChecksumField = -1;
        } else {
            require("ipv4.header", available, IPV4_HEADER);
            int version = (frame[ip] & 0xFF) >>> 4;
            if (version != 4) {
                throw new FrameDecodeException("ipv4.version", version, "4 (EtherType says IPv4)");
            }
            int ihl = frame[ip] & 0x0F;
            if (ihl < 5) {
                throw new FrameDecodeException("ipv4.ihl", ihl, "at least 5 (32-bit words)");
            }
            ipHeader = ihl * 4;
            require("ipv4.header", available, ipHeader);
            trafficClass = frame[ip + 1] & 0xFF;
            int totalLength = u16(frame, ip + 2);
            if (totalLength < ipHeader) {
                throw new FrameDecodeException(
                        "ipv4.totalLength", totalLength, "at least the header length " + ipHeader);
            }
            if (totalLength > available) {
                throw new FrameDecodeException(
                        "ipv4.totalLength",
                        totalLength,
                        "at most " + available + ", the bytes after the Ethernet header (frame truncated?)");
            }
            int fragment = u16(frame, ip + 6);
            if ((fragment & 0x3FFF) != 0) { // MF flag or a non-zero offset
                throw new FrameDecodeException(
                        "ipv4.flagsAndFragmentOffset", fragment, "no MF flag and offset 0 (an unfragmented datagram)");
            }
            int protocol = frame[ip + 9] & 0xFF;
            if (protocol != PROTO_UDP) {
                throw new FrameDecodeException("ipv4.protocol", protocol, PROTO_UDP + " (UDP)");
            }
            out.ttl(frame[ip + 8] & 0xFF);
            ipChecksumField = u16(frame, ip + 10);
            ipVerdict = fold(sum(frame, ip, ipHeader, 0)) == 0xFFFF ? ChecksumVerdict.GOOD : ChecksumVerdict.BAD;
            src = Arrays.copyOfRange(frame, ip + 12, ip + 16);
            dst = Arrays.copyOfRange(frame, ip + 16, ip + 20);
            ipEnd = ip + totalLength;
        }
        out.dscp(trafficClass >>> 2).ecn(Ecn.fromCodepoint(trafficClass));
        out.srcIp(address(src)).dstIp(address(dst));

        int udp = ip + ipHeader;
        int udpAvailable = ipEnd - udp;
        require("udp.header", udpAvailable, UDP_HEADER);
        int udpLength = u16(frame, udp + 4);
        if (udpLength != udpAvailable) {
            throw new FrameDecodeException("udp.length", udpLength, udpAvailable + ", the IP payload length");
        }
        out.srcPort(u16(frame, udp)).dstPort(u16(frame, udp + 2));
        out.payload(Arrays.copyOfRange(frame, udp + UDP_HEADER, ipEnd));
        int udpChecksumField = u16(frame, udp + 6);
        ChecksumVerdict udpVerdict;
        if (udpChecksumField == 0) {
            // Zero means "not computed": legal over IPv4 (RFC 768), forbidden over IPv6 (RFC 8200 §8.1).
            udpVerdict = v6 ? ChecksumVerdict.BAD : ChecksumVerdict.ABSENT;
        } else {
            long s = sum(frame, udp, udpLength, pseudoHeaderSum(src, dst, udpLength));
            if (fold(s) == 0xFFFF) {
                udpVerdict = ChecksumVerdict.GOOD;
            } else if (udpChecksumField == fold(pseudoHeaderSum(src, dst, udpLength))) {
                // What a host leaves in the field for checksum offload: captured before the NIC filled it in.
                udpVerdict = ChecksumVerdict.PARTIAL;
            } else {
                udpVerdict = ChecksumVerdict.BAD;
            }
        }
        return new DecodedFrame(out.build(), ipVerdict, udpVerdict, ipChecksumField, udpChecksumField, n - ipEnd);
    }

    private static void require(String field, int available, int needed) throws FrameDecodeException {
        if (available < needed) {
            throw new FrameDecodeException(field, available, "at least " + needed + " bytes (frame truncated)");
        }
    }

    private static InetAddress address(byte[] raw) {
        try {
            // Inet6Address.getByAddress keeps an IPv4-mapped IPv6 address IPv6; InetAddress.getByAddress would
            // turn it into an Inet4Address and the frame would then mix families.
            return raw.length == 16 ? Inet6Address.getByAddress(null, raw, -1) : InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new AssertionError("4 or 16 bytes are always an address", e);
        }
    }

    /** The field value for {@code mode} given the correct one. */
    private static int apply(ChecksumMode mode, int correct) {
        switch (mode) {
            case CORRECT:
                return correct;
            case ZERO:
                return 0;
            case CORRUPT:
                // Flip bits, but never land on 0 ("no checksum" for UDP/IPv4) or 0xFFFF (ones'-complement
                // zero, which would verify whenever the correct value is 0).
                int bad = correct ^ 0x5A5A;
                return (bad == 0 || bad == 0xFFFF) ? correct ^ 0x0F0F : bad;
            default:
                throw new AssertionError(mode);
        }
    }

    /** Ones'-complement sum of the UDP pseudo-header (RFC 768 for IPv4, RFC 8200 §8.1 for IPv6). */
    private static long pseudoHeaderSum(byte[] src, byte[] dst, int udpLength) {
        // Both layouts reduce to: addresses, protocol and length, because zero bytes add nothing.
        return sum(src, 0, src.length, 0) + sum(dst, 0, dst.length, 0) + PROTO_UDP + udpLength;
    }

    /** Adds the big-endian 16-bit words of {@code b[off, off+len)} to {@code acc}, padding an odd tail. */
    static long sum(byte[] b, int off, int len, long acc) {
        int end = off + len;
        int i = off;
        for (; i + 1 < end; i += 2) {
            acc += ((b[i] & 0xFF) << 8) | (b[i + 1] & 0xFF);
        }
        if (i < end) {
            acc += (b[i] & 0xFF) << 8;
        }
        return acc; // a long cannot overflow here: at most ~33k words of 0xFFFF
    }

    /** Folds carries back into 16 bits. */
    static int fold(long sum) {
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) sum;
    }

    /** The checksum field value: the complement of the folded sum. */
    static int finish(long sum) {
        return ~fold(sum) & 0xFFFF;
    }

    private static int u16(byte[] b, int off) {
        return ((b[off] & 0xFF) << 8) | (b[off + 1] & 0xFF);
    }

    private static void putU16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }
}

package org.mrconf.pcap;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One UDP datagram in an Ethernet frame, as the suite sends or sees it: addresses, ports, DSCP/ECN, TTL, the
 * opaque MetaRoCE payload and a capture timestamp. Immutable; build one with {@link #builder()}.
 *
 * <p>Lengths and checksums are not fields: {@link FrameCodec} derives them, so a frame cannot disagree with
 * itself. Deliberately bad lengths and checksums are a property of encoding ({@link EncodeOptions}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class UdpFrame {

    /** Largest UDP payload over IPv4: 65535 minus a 20-byte IPv4 header and the 8-byte UDP header. */
    public static final int MAX_IPV4_PAYLOAD = 65_535 - 20 - 8;
    /** Largest UDP payload over IPv6 without a jumbogram: 65535 (payload length) minus the UDP header. */
    public static final int MAX_IPV6_PAYLOAD = 65_535 - 8;
    /** The draft's default MetaRoCE destination port (clause 4.1.3; provisional, not IANA-assigned). */
    public static final int METAROCE_PORT = 4796;

    private final MacAddress srcMac;
    private final MacAddress dstMac;
    private final InetAddress srcIp;
    private final InetAddress dstIp;
    private final int srcPort;
    private final int dstPort;
    private final int dscp;
    private final Ecn ecn;
    private final int ttl;
    private final byte[] payload;
    private final Instant timestamp;

    private UdpFrame(Builder b) {
        this.srcMac = Objects.requireNonNull(b.srcMac, "srcMac");
        this.dstMac = Objects.requireNonNull(b.dstMac, "dstMac");
        this.srcIp = Objects.requireNonNull(b.srcIp, "srcIp");
        this.dstIp = Objects.requireNonNull(b.dstIp, "dstIp");
        this.ecn = Objects.requireNonNull(b.ecn, "ecn");
        this.timestamp = Objects.requireNonNull(b.timestamp, "timestamp");
        if (srcIp.getClass() != dstIp.getClass()) {
            throw new IllegalArgumentException("srcIp and dstIp must be the same family: " + srcIp + ", " + dstIp);
        }
        this.srcPort = checkRange("srcPort", b.srcPort, 0xFFFF);
        this.dstPort = checkRange("dstPort", b.dstPort, 0xFFFF);
        this.dscp = checkRange("dscp", b.dscp, 63);
        this.ttl = checkRange("ttl", b.ttl, 255);
        this.payload = b.payload;
        int max = isIpv6() ? MAX_IPV6_PAYLOAD : MAX_IPV4_PAYLOAD;
        if (payload.length > max) {
            throw new IllegalArgumentException("payload of " + payload.length + " bytes exceeds the "
                    + (isIpv6() ? "IPv6" : "IPv4") + " maximum of " + max);
        }
    }

    private static int checkRange(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be in 0.." + max + ": " + value);
        }
        return value;
    }

    /** A builder with defaults: locally administered MACs, 192.0.2.1 → 192.0.2.2 (TEST-NET-1), source port
     *  49152, destination port {@value #METAROCE_PORT}, DSCP 0, Not-ECT, TTL 64, empty payload, timestamp at
     *  the epoch (so captures are reproducible). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this frame's values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.srcMac = srcMac;
        b.dstMac = dstMac;
        b.srcIp = srcIp;
        b.dstIp = dstIp;
        b.srcPort = srcPort;
        b.dstPort = dstPort;
        b.dscp = dscp;
        b.ecn = ecn;
        b.ttl = ttl;
        b.payload = payload;
        b.timestamp = timestamp;
        return b;
    }

    public MacAddress srcMac() {
        return srcMac;
    }

    public MacAddress dstMac() {
        return dstMac;
    }

    public InetAddress srcIp() {
        return srcIp;
    }

    public InetAddress dstIp() {
        return dstIp;
    }

    public int srcPort() {
        return srcPort;
    }

    public int dstPort() {
        return dstPort;
    }

    /** Differentiated services code point, 6 bits. */
    public int dscp() {
        return dscp;
    }

    public Ecn ecn() {
        return ecn;
    }

    /** IPv4 TTL or IPv6 hop limit. */
    public int ttl() {
        return ttl;
    }

    /** True for IPv6, false for IPv4. */
    public boolean isIpv6() {
        return srcIp instanceof Inet6Address;
    }

    /** The UDP payload, read-only, positioned at 0; each call returns an independent view. */
    public ByteBuffer payload() {
        return ByteBuffer.wrap(payload).asReadOnlyBuffer();
    }

    /** A copy of the UDP payload. */
    public byte[] payloadBytes() {
        return payload.clone();
    }

    public int payloadLength() {
        return payload.length;
    }

    /** Capture (or send) time, nanosecond precision. */
    public Instant timestamp() {
        return timestamp;
    }

    /** The same frame at another timestamp. */
    public UdpFrame withTimestamp(Instant ts) {
        return toBuilder().timestamp(ts).build();
    }

    // Package-private: lets the codec read the payload without a copy.
    byte[] payloadArray() {
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UdpFrame)) {
            return false;
        }
        UdpFrame f = (UdpFrame) o;
        return srcPort == f.srcPort
                && dstPort == f.dstPort
                && dscp == f.dscp
                && ttl == f.ttl
                && ecn == f.ecn
                && srcMac.equals(f.srcMac)
                && dstMac.equals(f.dstMac)
                && srcIp.equals(f.srcIp)
                && dstIp.equals(f.dstIp)
                && java.util.Arrays.equals(payload, f.payload)
                && timestamp.equals(f.timestamp);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                srcMac,
                dstMac,
                srcIp,
                dstIp,
                srcPort,
                dstPort,
                dscp,
                ecn,
                ttl,
                java.util.Arrays.hashCode(payload),
                timestamp);
    }

    @Override
    public String toString() {
        return "UdpFrame[" + timestamp + " " + srcMac + " > " + dstMac + " " + srcIp.getHostAddress() + ":" + srcPort
                + " > " + dstIp.getHostAddress() + ":" + dstPort + " dscp=" + dscp + " ecn=" + ecn + " ttl=" + ttl
                + " payload=" + payload.length + "B]";
    }

    /** Mutable builder for {@link UdpFrame}; {@link #build()} validates. */
    public static final class Builder {
        private MacAddress srcMac = MacAddress.of(0x02_00_00_00_00_01L);
        private MacAddress dstMac = MacAddress.of(0x02_00_00_00_00_02L);
        private InetAddress srcIp = ipv4(192, 0, 2, 1);
        private InetAddress dstIp = ipv4(192, 0, 2, 2);
        private int srcPort = 49_152;
        private int dstPort = METAROCE_PORT;
        private int dscp;
        private Ecn ecn = Ecn.NOT_ECT;
        private int ttl = 64;
        private byte[] payload = new byte[0];
        private Instant timestamp = Instant.EPOCH;

        private Builder() {}

        public Builder srcMac(MacAddress mac) {
            this.srcMac = mac;
            return this;
        }

        public Builder dstMac(MacAddress mac) {
            this.dstMac = mac;
            return this;
        }

        public Builder srcIp(InetAddress ip) {
            this.srcIp = ip;
            return this;
        }

        public Builder dstIp(InetAddress ip) {
            this.dstIp = ip;
            return this;
        }

        /** Parses literal addresses only (never resolves names), e.g. {@code "2001:db8::1"}. */
        public Builder ips(String src, String dst) {
            this.srcIp = literal(src);
            this.dstIp = literal(dst);
            return this;
        }

        /** Switches to the IPv6 documentation addresses 2001:db8::1 → 2001:db8::2. */
        public Builder ipv6Defaults() {
            return ips("2001:db8::1", "2001:db8::2");
        }

        public Builder srcPort(int port) {
            this.srcPort = port;
            return this;
        }

        public Builder dstPort(int port) {
            this.dstPort = port;
            return this;
        }

        public Builder dscp(int dscp) {
            this.dscp = dscp;
            return this;
        }

        public Builder ecn(Ecn ecn) {
            this.ecn = ecn;
            return this;
        }

        /** IPv4 TTL or IPv6 hop limit. */
        public Builder ttl(int ttl) {
            this.ttl = ttl;
            return this;
        }

        /** Copies the bytes. */
        public Builder payload(byte[] payload) {
            this.payload = payload.clone();
            return this;
        }

        /** Copies the buffer's remaining bytes without moving its position. */
        public Builder payload(ByteBuffer payload) {
            ByteBuffer dup = payload.duplicate();
            byte[] b = new byte[dup.remaining()];
            dup.get(b);
            this.payload = b;
            return this;
        }

        public Builder timestamp(Instant timestamp) {
            this.timestamp = timestamp;
            return this;
        }

        public UdpFrame build() {
            return new UdpFrame(this);
        }
    }

    private static InetAddress ipv4(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError("four bytes are always a valid IPv4 address", e);
        }
    }

    private static InetAddress literal(String text) {
        // getByName would do a DNS look-up for a name; accept only literals so a typo fails fast and offline.
        boolean looksLiteral = text.indexOf(':') >= 0 || text.matches("[0-9.]+");
        if (!looksLiteral) {
            throw new IllegalArgumentException("not an IP address literal: " + text);
        }
        try {
            InetAddress a = InetAddress.getByName(text);
            if (!(a instanceof Inet4Address) && !(a instanceof Inet6Address)) {
                throw new IllegalArgumentException("not an IP address literal: " + text);
            }
            return a;
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal: " + text, e);
        }
    }
}

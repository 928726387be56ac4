package org.mrconf.pcap;

import java.time.Instant;
import java.util.Random;

/** Test frames. */
final class Frames {

    private Frames() {}

    static byte[] payload(int size, long seed) {
        byte[] p = new byte[size];
        new Random(seed).nextBytes(p);
        return p;
    }

    static UdpFrame ipv4(int payloadSize) {
        return UdpFrame.builder()
                .ips("10.0.0.1", "10.0.0.2")
                .srcPort(50_000 + payloadSize % 1000)
                .dstPort(UdpFrame.METAROCE_PORT)
                .dscp(26)
                .ecn(Ecn.ECT_0)
                .payload(payload(payloadSize, payloadSize))
                .timestamp(Instant.ofEpochSecond(1_700_000_000L, 123_456_789L))
                .build();
    }

    static UdpFrame ipv6(int payloadSize) {
        return UdpFrame.builder()
                .srcMac(MacAddress.parse("02:11:22:33:44:55"))
                .dstMac(MacAddress.parse("02:66:77:88:99:aa"))
                .ips("2001:db8:1::10", "2001:db8:2::20")
                .srcPort(61_000)
                .dstPort(UdpFrame.METAROCE_PORT)
                .dscp(46)
                .ecn(Ecn.ECT_1)
                .ttl(17)
                .payload(payload(payloadSize, ~payloadSize))
                .timestamp(Instant.ofEpochSecond(1_700_000_001L, 987_654_321L))
                .build();
    }
}

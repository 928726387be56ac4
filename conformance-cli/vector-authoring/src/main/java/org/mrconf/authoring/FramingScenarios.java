package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.hex;
import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;
import static org.mrconf.authoring.Scenarios.zeros;

import java.util.List;
import org.mrconf.embedded.ReferenceConfiguration;

/**
 * The built-in scenarios of the framing itself (clauses 4.1.1, 4.1.2 and 4.1.6): MetaRoCE over UDP over IPv4 and
 * over IPv6, sent and received, and the UDP checksum rules of each. They replay only on a link of the stimulus's IP
 * version ({@code asCaptured ipFamily}); the checksum ones only on a link that builds whole frames
 * ({@code udpChecksums}). Each is recorded against the reference configuration whose link can carry it. See
 * {@link Scenarios} for the placeholders.
 */
final class FramingScenarios {
    /** Long enough to need several packets at any MTU up to 9000 bytes. */
    private static final int MESSAGE = 10_000;

    private static final int SOURCE_LENGTH = 64 * 1024;

    private FramingScenarios() {}

    static List<Scenario> all() {
        return List.of(udpOverIpv4(), udpOverIpv6(), checksumsOverIpv4(), checksumsOverIpv6());
    }

    private static Scenario udpOverIpv4() {
        final Scenario scenario = new Scenario(
                "4.1.1/udp-over-ipv4",
                "valid",
                "Ensure that the DUT takes in a WRITE carried in UDP over IPv4 and places it, and sends its ACK and"
                        + " every packet of a 10000-byte WRITE of its own in UDP over IPv4, each datagram's payload"
                        + " starting with the MetaRoCE header",
                "4.1.1");
        scenario.asCaptured.add(org.mrconf.replay.Sidecar.IP_FAMILY); // recorded against the standard configuration
        return carriage(scenario, 120);
    }

    private static Scenario udpOverIpv6() {
        final Scenario scenario = new Scenario(
                        "4.1.2/udp-over-ipv6",
                        "valid",
                        "Ensure that a DUT claiming the ipv6 profile takes in a WRITE carried in UDP over IPv6 and"
                                + " places it, and sends its ACK and every packet of a 10000-byte WRITE of its own in"
                                + " UDP over IPv6",
                        "4.1.2")
                .overIpv6(ReferenceConfiguration.IPV6);
        scenario.profiles.add("ipv6");
        return carriage(scenario, 122);
    }

    /**
     * The DUT receives a 64-byte WRITE of the tester's and places it, then posts a WRITE of its own that the tester
     * takes in packet by packet: both directions of the framing, judged by decoding what the DUT sent.
     */
    private static Scenario carriage(final Scenario scenario, final int seed) {
        final byte[] placed = pattern(64, seed);
        final byte[] sent = pattern(MESSAGE, seed + 1);
        target(scenario).region("source", SOURCE_LENGTH, sent, "LOCAL_WRITE");
        scenario.sendFrames(scenario.frame(0, write(0, 0, 0, 64, placed).build()));
        scenario.post(
                "WRITE", 0, 910, "source", 0, MESSAGE, SenderScenarios.TESTER_ADDRESS, SenderScenarios.TESTER_KEY);
        scenario.await("WRITE", 0)
                .put("msn", 0)
                .put("messageLength", MESSAGE)
                .put("payloadSha256", Scenarios.sha256(sent));
        return scenario.expectAck(0, 1, 1).expectResponse("WRITE", 2).expectRegion("target", 0, hex(placed));
    }

    private static Scenario checksumsOverIpv4() {
        final byte[] accepted = pattern(64, 124);
        final Scenario scenario = target(new Scenario(
                "4.1.6/udp-checksums-over-ipv4",
                "invalid",
                "Ensure that over IPv4 the DUT accepts a WRITE whose UDP checksum is zero (no checksum) and drops a"
                        + " WRITE whose non-zero UDP checksum is wrong without answering it or counting it in"
                        + " rx_packets, and that every datagram it sends carries a right or zero UDP checksum",
                "4.1.6"));
        scenario.configuration = ReferenceConfiguration.FRAMES;
        scenario.asCaptured.add(org.mrconf.replay.Sidecar.IP_FAMILY);
        scenario.udpChecksum(scenario.frame(0, write(0, 0, 0, 64, accepted).build()), "zero");
        scenario.udpChecksum(
                scenario.frame(
                        0,
                        write(1, 1, 0, 64, pattern(64, 125))
                                .remoteAddress(Scenarios.TARGET_ADDRESS + 4096)
                                .build()),
                "wrong");
        return scenario.expectAck(0, 1, 1)
                .neverAck(0, 2)
                .never("NACK")
                .expectCounter("rx_packets", 1)
                .expectSentUdpChecksums()
                .expectRegion("target", 0, hex(accepted))
                .expectRegion("target", 4096, zeros(64));
    }

    private static Scenario checksumsOverIpv6() {
        final byte[] accepted = pattern(64, 126);
        final Scenario scenario = target(new Scenario(
                        "4.1.6/udp-checksums-over-ipv6",
                        "invalid",
                        "Ensure that over IPv6 the DUT drops a WRITE whose UDP checksum is wrong and then the"
                                + " same PSN with a zero UDP checksum, neither answered nor counted in"
                                + " rx_packets, accepts it with a right one, and sends every datagram with"
                                + " a right UDP checksum",
                        "4.1.6")
                .overIpv6(ReferenceConfiguration.IPV6));
        scenario.profiles.add("ipv6");
        // One PSN three times, each with other bytes: whichever frame the DUT took in shows in the region.
        scenario.udpChecksum(
                scenario.frame(0, write(0, 0, 0, 64, pattern(64, 127)).build()), "wrong");
        scenario.udpChecksum(
                scenario.frame(0, write(0, 0, 0, 64, pattern(64, 128)).build()), "zero");
        scenario.frame(0, write(0, 0, 0, 64, accepted).build());
        return scenario.expectAck(0, 1, 1)
                .never("NACK")
                .expectCounter("rx_packets", 1)
                .expectSentUdpChecksums()
                .expectRegion("target", 0, hex(accepted));
    }
}

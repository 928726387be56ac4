package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;
import static org.mrconf.authoring.Scenarios.zeros;

import java.util.HexFormat;
import java.util.List;
import org.mrconf.pcap.Ecn;

/**
 * The built-in scenarios that need link-level fields of the stimulus replayed as captured ({@code asCaptured}): UDP
 * source ports (the entropy), an ECN mark, another source address, and where the DUT sends its answers. A link that
 * cannot send such a field makes the vector not applicable. See {@link Scenarios} for the placeholders.
 */
final class LinkScenarios {
    /** Source ports none of the tester's own paths use, and not the tester's MetaRoCE port. */
    private static final int FIRST_PORT = 50_100;

    private static final int SEGMENT = 1024;

    private LinkScenarios() {}

    static List<Scenario> all() {
        return List.of(segmentsFromFourSourcePorts(), ceMarkedWrite(), writeFromAnotherAddress(), answersToSetUpPort());
    }

    private static Scenario segmentsFromFourSourcePorts() {
        final byte[] message = pattern(4 * SEGMENT, 71);
        final Scenario scenario = target(new Scenario(
                "4.1.4/write-segments-from-four-source-ports",
                "valid",
                "Ensure that the DUT places a four-packet WRITE whose packets come from four different UDP source ports"
                        + " (the sender's entropy) on one path, as if they came from one",
                "4.1.4"));
        for (int i = 0; i < 4; i++) {
            final int frame = scenario.frame(
                    0,
                    write(
                                    i,
                                    0,
                                    i * SEGMENT,
                                    message.length,
                                    java.util.Arrays.copyOfRange(message, i * SEGMENT, (i + 1) * SEGMENT))
                            .build());
            scenario.sourcePort(frame, FIRST_PORT + i);
        }
        return scenario.expectAck(0, 4, 1)
                .never("NACK")
                .expectRegion("target", 0, HexFormat.of().formatHex(message));
    }

    private static Scenario ceMarkedWrite() {
        final byte[] payload = pattern(64, 72);
        final Scenario scenario = target(new Scenario(
                "4.1.7/ce-marked-write-is-placed-and-counted",
                "valid",
                "Ensure that the DUT places and acknowledges a CE-marked WRITE as it would an unmarked one, counts the"
                        + " mark, and reports it in the CE count of the ACK",
                "4.1.7",
                "8.2.2",
                "8.2.5"));
        scenario.profiles.add("congestion");
        scenario.ecn(scenario.frame(0, write(0, 0, 0, 64, payload).build()), Ecn.CE);
        return scenario.expectAckWithCeCount(0, 1, 1)
                .expectCounter("rx_ce_marked", 1)
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }

    private static Scenario writeFromAnotherAddress() {
        final byte[] first = pattern(64, 73);
        final Scenario scenario = target(new Scenario(
                "11.2.2/write-from-unexpected-source",
                "invalid",
                "Ensure that the DUT silently drops and counts a WRITE for a known connection from an IP address that"
                        + " is not the connection's peer, places nothing and records nothing, where the peer's own"
                        + " WRITE before it was placed",
                "11.2.2"));
        // The first frame comes from the peer: replay takes its source as the tester's (asCaptured sourceAddress).
        scenario.frame(0, write(0, 0, 0, 64, first).build());
        scenario.fromOtherAddress(scenario.frame(
                0,
                write(1, 1, 0, 64, pattern(64, 75))
                        .remoteAddress(Scenarios.TARGET_ADDRESS + 4096)
                        .build()));
        return scenario.expectAck(0, 1, 1)
                .neverAck(0, 2)
                .never("NACK")
                .expectCounter("rx_unexpected_source", 1)
                .expectRegion("target", 0, HexFormat.of().formatHex(first))
                .expectRegion("target", 4096, zeros(64));
    }

    private static Scenario answersToSetUpPort() {
        final byte[] payload = pattern(64, 74);
        final Scenario scenario = target(new Scenario(
                "4.2.3/ack-goes-to-the-set-up-port",
                "valid",
                "Ensure that the DUT sends the ACK of a WRITE that came from an unusual UDP source port to the tester's"
                        + " address and MetaRoCE port given at set-up, not back to the source port",
                "4.1.3",
                "4.2.3"));
        scenario.sourcePort(scenario.frame(0, write(0, 0, 0, 64, payload).build()), FIRST_PORT + 7);
        return scenario.expectAck(0, 1, 1)
                .expectToTesterPort()
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }
}

package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.CONNECTION;
import static org.mrconf.authoring.Scenarios.PSN_BASE;
import static org.mrconf.authoring.Scenarios.TARGET_ADDRESS;
import static org.mrconf.authoring.Scenarios.TARGET_KEY;
import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;
import static org.mrconf.authoring.Scenarios.zeros;

import java.util.List;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.peer.PacketBuilder;

/**
 * The scenarios about a device that claims fewer profiles (clauses 5.6.7 and 8.2.6), recorded against the reference's
 * core configuration and not applicable to a device that claims the profile each names in {@code unclaimedProfiles}.
 */
final class UnclaimedProfileScenarios {
    private UnclaimedProfileScenarios() {}

    static List<Scenario> all() {
        return List.of(readRequestWithoutRead(), writeWithImmediateWithoutImmediate(), acksWithoutCongestion());
    }

    private static Scenario readRequestWithoutRead() {
        final Scenario scenario = target(new Scenario(
                        "5.6.7/read-request-without-the-read-profile",
                        "invalid",
                        "Ensure that a DUT that does not claim the read profile answers a READ_REQUEST with NACK"
                                + " INVALID_REQUEST naming it, counted under reject_invalid_request, and sends no"
                                + " READ_RESPONSE",
                        "5.6.7"))
                .send(
                        0,
                        PacketBuilder.readRequest().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                                .msn(0)
                                .messageLength(64)
                                .remoteAddress(TARGET_ADDRESS)
                                .remoteKey(TARGET_KEY)
                                .sinkHandle(0x51)
                                .transmitTimestamp(1000)
                                .ackRequest()
                                .build())
                .expectNackNaming(0, "INVALID_REQUEST", 0, 0, 0, 0)
                .never("READ_RESPONSE")
                .expectCounter("reject_invalid_request", 1);
        return withoutProfile(scenario, "read");
    }

    private static Scenario writeWithImmediateWithoutImmediate() {
        final Scenario scenario = target(new Scenario(
                        "5.6.7/write-with-immediate-without-the-immediate-profile",
                        "invalid",
                        "Ensure that a DUT that does not claim the immediate profile answers a WRITE_WITH_IMMEDIATE"
                                + " with NACK INVALID_REQUEST naming it, counted under reject_invalid_request, and"
                                + " places none of its bytes",
                        "5.6.7"))
                .send(
                        0,
                        PacketBuilder.writeWithImmediate().connection(CONNECTION).path(0).psn(PSN_BASE).stream(0)
                                .msn(0)
                                .messageLength(64)
                                .messageOffset(0)
                                .remoteAddress(TARGET_ADDRESS)
                                .remoteKey(TARGET_KEY)
                                .immediate(0xC0FFEE)
                                .payload(pattern(64, 95))
                                .transmitTimestamp(1000)
                                .ackRequest()
                                .build())
                .expectNackNaming(0, "INVALID_REQUEST", 0, 0, 0, 0)
                .expectCounter("reject_invalid_request", 1)
                .expectRegion("target", 0, zeros(64));
        return withoutProfile(scenario, "immediate");
    }

    private static Scenario acksWithoutCongestion() {
        final Scenario scenario = target(new Scenario(
                "8.2.6/acks-without-the-congestion-profile",
                "valid",
                "Ensure that a DUT that does not claim the congestion profile acknowledges two CE-marked WRITEs with"
                        + " ACKs that all carry CE count 0 and rate hint 0xFFFFFFFF",
                "8.2.6"));
        final byte[] first = pattern(64, 96);
        final byte[] second = pattern(64, 97);
        scenario.send(0, write(0, 0, 0, 64, first).build());
        scenario.send(
                0, write(1, 1, 0, 64, second).remoteAddress(TARGET_ADDRESS + 64).build());
        scenario.ecn(0, org.mrconf.pcap.Ecn.CE);
        scenario.ecn(1, org.mrconf.pcap.Ecn.CE);
        scenario.expect.put("noCongestionSignals", true);
        scenario.expectAck(0, 2, 1).expectRegion("target", 0, Scenarios.hex(first) + Scenarios.hex(second));
        return withoutProfile(scenario, "congestion");
    }

    private static Scenario withoutProfile(final Scenario scenario, final String profile) {
        scenario.unclaimedProfiles.add(profile);
        scenario.configuration = ReferenceConfiguration.CORE;
        return scenario;
    }
}

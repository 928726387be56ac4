package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.TARGET_ADDRESS;
import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;
import static org.mrconf.authoring.Scenarios.zeros;

import java.util.HexFormat;
import java.util.List;

/**
 * The built-in scenarios with a control request between packets: a region invalidated (clause 11.1.4) or the
 * connection destroyed (clause 4.2.2) after a first WRITE was placed, then a second WRITE. See {@link Scenarios} for
 * the placeholders replay rewrites.
 */
final class ControlStepScenarios {
    /** Where the second WRITE of each scenario goes: not where the first one went. */
    private static final int SECOND_OFFSET = 4096;

    private ControlStepScenarios() {}

    static List<Scenario> all() {
        return List.of(writeAfterInvalidation(), writeAfterDestroy());
    }

    private static Scenario writeAfterInvalidation() {
        final byte[] first = pattern(64, 61);
        final Scenario scenario = target(new Scenario(
                "11.1.4/write-after-invalidation",
                "inopportune",
                "Ensure that once its region is invalidated the DUT refuses a WRITE with the region's old key with NACK"
                        + " REMOTE_ACCESS, where a WRITE with the same key was placed before the invalidation",
                "11.1.4"));
        final int before = scenario.frame(0, write(0, 0, 0, 64, first).build());
        final int after = scenario.frame(
                0,
                write(1, 1, 0, 64, pattern(64, 62))
                        .remoteAddress(TARGET_ADDRESS + SECOND_OFFSET)
                        .build());
        scenario.sendFrames(before);
        scenario.checkOnTheWay("target", 0, HexFormat.of().formatHex(first));
        scenario.invalidateRegion("target");
        scenario.sendFrames(after);
        return scenario.expectNack("REMOTE_ACCESS").expectCounter("reject_remote_access", 1);
    }

    private static Scenario writeAfterDestroy() {
        final byte[] first = pattern(64, 63);
        final Scenario scenario = target(new Scenario(
                "4.2.2/write-after-destroy",
                "inopportune",
                "Ensure that once its connection is destroyed the DUT drops and counts a WRITE naming the connection"
                        + " as one for an unknown connection and places nothing, where a WRITE was placed before",
                "4.2.2",
                "11.2.1"));
        final int before = scenario.frame(0, write(0, 0, 0, 64, first).build());
        final int after = scenario.frame(
                0,
                write(1, 1, 0, 64, pattern(64, 64))
                        .remoteAddress(TARGET_ADDRESS + SECOND_OFFSET)
                        .build());
        scenario.sendFrames(before);
        scenario.checkOnTheWay("target", 0, HexFormat.of().formatHex(first));
        scenario.destroyConnection();
        scenario.sendFrames(after);
        // No never("NACK"): clause 11.2.1 lets the DUT answer an unknown connection with NACK UNKNOWN_CONNECTION.
        return scenario.expectCounter("rx_unknown_connection", 1)
                .expectRegion("target", 0, HexFormat.of().formatHex(first))
                .expectRegion("target", SECOND_OFFSET, zeros(64));
    }
}

package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.FOREIGN_KEY;
import static org.mrconf.authoring.Scenarios.TARGET_ADDRESS;
import static org.mrconf.authoring.Scenarios.TARGET_LENGTH;
import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;
import static org.mrconf.authoring.Scenarios.zeros;

import java.util.HexFormat;
import java.util.List;

/**
 * The built-in scenarios of clause 5.6.6: each packet fails two connection-state checks, and the vector expects the
 * answer and the counter of the earlier one only. See {@link Scenarios} for the placeholders replay rewrites.
 */
final class CheckOrderScenarios {
    /** A stream id the one-stream connection of every vector lacks. */
    private static final int UNKNOWN_STREAM = 7;

    private CheckOrderScenarios() {}

    static List<Scenario> all() {
        return List.of(duplicateOnUnknownStream(), unknownStreamAndForeignKey(), accessBeforeBounds());
    }

    private static Scenario duplicateOnUnknownStream() {
        final byte[] payload = pattern(64, 51);
        return target(new Scenario(
                        "5.6.6/duplicate-on-unknown-stream",
                        "invalid",
                        "Ensure that the DUT takes a copy of an acknowledged PSN for a duplicate, acknowledged and"
                                + " counted as one, though it names stream 7 of a one-stream connection: the window"
                                + " is checked before the stream id",
                        "5.6.6"))
                .send(0, write(0, 0, 0, 64, payload).build())
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 52)).stream(UNKNOWN_STREAM)
                                .build())
                .expectAck(0, 1, 2)
                .never("NACK")
                .expectCounter("rx_duplicate", 1)
                .expectCounter("reject_invalid_request", 0)
                .expectRegion("target", 0, HexFormat.of().formatHex(payload));
    }

    private static Scenario unknownStreamAndForeignKey() {
        return target(new Scenario(
                        "5.6.6/unknown-stream-before-foreign-key",
                        "invalid",
                        "Ensure that the DUT answers a WRITE on stream 7 of a one-stream connection whose key names no"
                                + " region with NACK INVALID_REQUEST, not REMOTE_ACCESS: the stream id is checked"
                                + " before the key",
                        "5.6.6"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 53)).stream(UNKNOWN_STREAM)
                                .remoteKey(FOREIGN_KEY)
                                .build())
                .expectNack("INVALID_REQUEST")
                .expectCounter("reject_invalid_request", 1)
                .expectCounter("reject_remote_access", 0);
    }

    private static Scenario accessBeforeBounds() {
        return new Scenario(
                        "5.6.6/access-before-bounds",
                        "invalid",
                        "Ensure that the DUT answers a WRITE that runs 32 bytes past the end of a region registered"
                                + " without REMOTE_WRITE with NACK REMOTE_ACCESS, not BOUNDS: access is checked before"
                                + " bounds",
                        "5.6.6")
                .region("target", TARGET_LENGTH, "LOCAL_WRITE", "REMOTE_READ")
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 54))
                                .remoteAddress(TARGET_ADDRESS + TARGET_LENGTH - 32)
                                .build())
                .expectNack("REMOTE_ACCESS")
                .expectCounter("reject_remote_access", 1)
                .expectCounter("reject_bounds", 0)
                .expectRegion("target", TARGET_LENGTH - 32, zeros(32));
    }
}

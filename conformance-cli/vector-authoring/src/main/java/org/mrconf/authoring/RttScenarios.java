package org.mrconf.authoring;

import static org.mrconf.authoring.SenderScenarios.TESTER_ADDRESS;
import static org.mrconf.authoring.SenderScenarios.TESTER_KEY;

import java.util.List;

/**
 * The built-in scenario that judges the DUT's RTT estimate (clause 6.6.1) by the RTO it gives: one RTT sample the
 * tester inflates with an old echo, then a packet whose ACK it holds back. See {@code RttEstimateCheck}.
 */
final class RttScenarios {
    /**
     * The echo age: 3 x 20 ms = 60 ms lies within the declared RTO bounds of the reference (0.1 to 100 ms) and its soft
     * DUT (2 to 500 ms) with room for their tolerances, and far above the RTO a true loopback round trip gives.
     */
    private static final long ECHO_AGE_MS = 20;

    private RttScenarios() {}

    static List<Scenario> all() {
        return List.of(rtoFollowsTheEcho());
    }

    private static Scenario rtoFollowsTheEcho() {
        final Scenario scenario = new Scenario(
                        "6.6.1/dut-rto-from-the-echoed-timestamp",
                        "valid",
                        "Ensure that the DUT, whose one packet so far the tester acknowledged with an echo 20 ms older"
                                + " than its transmit timestamp, resends its next packet, left unacknowledged, no"
                                + " sooner than the RTO that one RTT sample gives (3 x 20 ms, within the declared"
                                + " bounds, less the tolerance) and no later than twice the RTO of the longest sample"
                                + " its own timestamps allow, and completes both WRITEs",
                        "6.6.1")
                .region("source", 4096, 0x61, "LOCAL_WRITE");
        scenario.stretchTimer(ECHO_AGE_MS);
        scenario.post("WRITE", 0, 1500, "source", 0, 64, TESTER_ADDRESS, TESTER_KEY);
        scenario.checkCompleted(new long[] {1500});
        scenario.holdAcks(true);
        scenario.post("WRITE", 0, 1501, "source", 64, 64, TESTER_ADDRESS + 64, TESTER_KEY);
        scenario.check("rtoFollowsEcho");
        scenario.holdAcks(false);
        scenario.checkCompleted(new long[] {1501});
        return scenario.expectCompletion(1500, "SUCCESS", "WRITE").expectCompletion(1501, "SUCCESS", "WRITE");
    }
}

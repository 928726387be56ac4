package org.mrconf.authoring;

import static org.mrconf.authoring.SenderScenarios.TESTER_ADDRESS;
import static org.mrconf.authoring.SenderScenarios.TESTER_KEY;

import java.util.List;

/**
 * The built-in scenario that judges path health at the DUT as sender (clauses 6.7.1, 6.7.2): one of two paths is kept
 * silent until its timer has expired the declared number of times, then must get no new PSNs, and once acknowledged
 * must carry new PSNs again. See {@code PathHealthCheck} for what each check proves.
 */
final class PathHealthScenarios {
    /** Echoes this old stretch the answered path's timer far past the whole scenario, so only the silent one expires. */
    private static final long ECHO_AGE_MS = 1000;

    /** Several packets at any MTU up to 9000 bytes: a spraying DUT puts some of them on each path. */
    private static final int MESSAGE = 64 * 1024;

    /** More than the answered path's windows allow with ACKs held, so data is held back and the healed path needed. */
    private static final int LONG_MESSAGE = 2 << 20;

    private PathHealthScenarios() {}

    static List<Scenario> all() {
        return List.of(unhealthyPathAvoidedAndHealed());
    }

    /**
     * Path 0 is silent: a 64 KiB WRITE on stream 0 leaves PSNs on it that are never acknowledged, while path 1 is
     * answered at once. Once path 0's timer has expired the declared number of times (its resends and the DUT's
     * {@code rto_expirations} agree, with no resend on path 1), a 64 KiB WRITE on stream 1 must put no new PSN on
     * path 0, and every resend stays on its path (6.4.2, 6.7.1). Then one ACK per path acknowledges everything, ACKs
     * stay held, and a 2 MiB WRITE must put new PSNs on path 0 again (6.7.2); all three complete.
     */
    private static Scenario unhealthyPathAvoidedAndHealed() {
        final Scenario scenario = new Scenario(
                        "6.7.1/dut-unhealthy-path-avoided-then-healed",
                        "inopportune",
                        "Ensure that the DUT, its path 0 never acknowledged while path 1 is answered at once, resends"
                                + " path 0's PSNs only on path 0, puts no new PSN of a later WRITE on path 0 once its"
                                + " timer has expired the declared number of times, and, after one ACK of path 0"
                                + " acknowledges everything, puts new PSNs of a long WRITE on path 0 again while the"
                                + " tester holds its ACKs back; all three WRITEs complete",
                        "6.7.1",
                        "6.7.2")
                .region("source", LONG_MESSAGE, 0x4e, "LOCAL_WRITE");
        scenario.profiles.add("multipath");
        scenario.profiles.add("streams");
        scenario.setup.put("paths", 2).put("streams", 2);
        scenario.silence(ECHO_AGE_MS, 0);
        scenario.post("WRITE", 0, 1400, "source", 0, MESSAGE, TESTER_ADDRESS, TESTER_KEY);
        scenario.check("unhealthy");
        scenario.post("WRITE", 1, 1401, "source", 0, MESSAGE, TESTER_ADDRESS, TESTER_KEY);
        scenario.await("WRITE", 1);
        scenario.check("avoided");
        scenario.steps.addObject().putObject("acks").put("hold", true).put("describe", true);
        scenario.post("WRITE", 1, 1402, "source", 0, LONG_MESSAGE, TESTER_ADDRESS, TESTER_KEY);
        scenario.check("healed");
        scenario.holdAcks(false);
        scenario.checkCompleted(new long[] {1400, 1401, 1402});
        scenario.expect.put("retransmissionsFaithful", true);
        return scenario.expectCompletion(1400, "SUCCESS", "WRITE")
                .expectCompletion(1401, "SUCCESS", "WRITE")
                .expectCompletion(1402, "SUCCESS", "WRITE");
    }
}

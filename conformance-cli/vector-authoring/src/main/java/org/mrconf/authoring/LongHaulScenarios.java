package org.mrconf.authoring;

import static org.mrconf.authoring.SenderScenarios.TESTER_ADDRESS;
import static org.mrconf.authoring.SenderScenarios.TESTER_KEY;

import java.util.List;
import org.mrconf.embedded.ReferenceConfiguration;

/**
 * The built-in scenarios of clause 6.6.5, for a device that claims the long-haul profile, recorded against the
 * reference's long-haul configuration (the standard one does not claim it, so there they are NOT_APPLICABLE and cost
 * nothing): the declared timers suit a 10 ms path and the timer really backs off up to the maximum of 1 s or more;
 * a first window whose ACK comes back after a 10 ms round trip all leaves before that ACK and is never resent. See
 * {@code LongHaulChecks} and {@code HeldAckChecks} in spec-cases for the judgement.
 */
final class LongHaulScenarios {
    /**
     * The WRITE whose first window crosses the 10 ms path: four packets at the reference's MTU, a dozen at 1500 bytes,
     * so a device with a first window of a dozen packets sends it all before any ACK (a smaller window leaves the
     * vector INCONCLUSIVE, never FAIL).
     */
    private static final int FIRST_WINDOW_WRITE = 16 * 1024;

    private LongHaulScenarios() {}

    static List<Scenario> all() {
        return List.of(backsOffToTheLongHaulMaximum(), firstWindowCrossesATenMillisecondPath());
    }

    private static Scenario longHaul(final Scenario scenario, final int length) {
        scenario.profiles.add("long-haul");
        scenario.configuration = ReferenceConfiguration.LONG_HAUL;
        return scenario.region("source", length, 0x4C, "LOCAL_WRITE");
    }

    private static Scenario backsOffToTheLongHaulMaximum() {
        final Scenario scenario = longHaul(
                new Scenario(
                        "6.6.5/dut-backs-off-to-the-long-haul-maximum",
                        "inopportune",
                        "Ensure that the DUT, claiming long-haul, declares a minimum RTO of at most 20 ms, an initial"
                                + " RTO longer than 10 ms plus its tolerance and a maximum RTO of at least 1 s, and,"
                                + " posting a WRITE that the tester never acknowledges, resends its oldest PSN at"
                                + " intervals that start at the initial RTO and double on each expiry up to that"
                                + " maximum and stay there, give or take the declared tolerance, then completes the"
                                + " WRITE once acknowledged",
                        "6.6.5"),
                4096);
        scenario.holdAcks(true);
        scenario.post("WRITE", 0, 1650, "source", 0, 64, TESTER_ADDRESS, TESTER_KEY);
        scenario.steps
                .addObject()
                .putObject("check")
                .put("longHaulTimers", true)
                .put("resentOldest", true)
                .put("backoff", true);
        scenario.holdAcks(false);
        scenario.checkCompleted(new long[] {1650});
        return scenario.expectCompletion(1650, "SUCCESS", "WRITE");
    }

    private static Scenario firstWindowCrossesATenMillisecondPath() {
        final Scenario scenario = longHaul(
                new Scenario(
                        "6.6.5/dut-first-window-crosses-a-10-ms-path",
                        "valid",
                        "Ensure that the DUT, claiming long-haul, sends the whole of a 16 KiB WRITE before any ACK"
                                + " (its first window) and, the tester answering 10 ms after the last packet came,"
                                + " as a metro path would, resends none of it, and completes the WRITE",
                        "6.6.5"),
                FIRST_WINDOW_WRITE);
        scenario.holdAcks(true);
        scenario.post("WRITE", 0, 1651, "source", 0, FIRST_WINDOW_WRITE, TESTER_ADDRESS, TESTER_KEY);
        scenario.await("WRITE", 0);
        scenario.steps.addObject().putObject("acks").put("hold", false).put("waitMs", 10);
        scenario.steps
                .addObject()
                .putObject("check")
                .put("noSpuriousResend", true)
                .putArray("completed")
                .add(1651);
        return scenario.expectCompletion(1651, "SUCCESS", "WRITE");
    }
}

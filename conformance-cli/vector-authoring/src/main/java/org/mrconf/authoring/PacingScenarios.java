package org.mrconf.authoring;

import java.util.List;

/**
 * The built-in scenarios that judge how fast the DUT sends (clause 10.1.4), on its own transmit timestamps so that a
 * slow tester cannot make a compliant DUT look bursty. See {@link SenderScenarios} for the tester's region.
 */
final class PacingScenarios {
    /** The hint the tester's ACKs carry: slow enough that a DUT ignoring it overshoots many times over. */
    private static final long HINT_MBPS = 10;
    /** The interval judged: far longer than any RTT of a test link, far shorter than the message takes at the hint. */
    private static final long INTERVAL_MS = 100;
    /** At 10 Mbit/s about 0.8 s of sending: the message outlasts the interval. */
    private static final int MESSAGE = 1 << 20;

    private PacingScenarios() {}

    static List<Scenario> all() {
        return List.of(paceKeepsToTheRateHint());
    }

    /**
     * Every ACK carries a 10 Mbit/s hint. A 64-byte WRITE completes first, which shows that the DUT took in an ACK
     * carrying it; then a 1 MiB WRITE must not put more on the wire within 100 ms of its clock than the hint allows
     * (with the declared tolerance and four packets of burst). The connection is destroyed after the check, so the
     * DUT does not spend the rest of the message's 0.8 s on the replay.
     */
    private static Scenario paceKeepsToTheRateHint() {
        final Scenario scenario = new Scenario(
                        "10.1.4/dut-paced-to-the-rate-hint",
                        "valid",
                        "Ensure that once the DUT has taken in an ACK carrying a rate hint of 10 Mbit/s, the packets of"
                                + " a 1 MiB WRITE it sends within 100 ms of its own clock hold no more bytes than the"
                                + " hint allows over that interval and the declared tolerance, plus four packets of"
                                + " its MTU",
                        "10.1.4")
                .region("source", MESSAGE, 0x5a, "LOCAL_WRITE");
        scenario.profiles.add("congestion");
        scenario.rateHint(HINT_MBPS);
        scenario.post("WRITE", 0, 940, "source", 0, 64, SenderScenarios.TESTER_ADDRESS, SenderScenarios.TESTER_KEY);
        scenario.checkCompleted(new long[] {940});
        scenario.post(
                "WRITE", 0, 941, "source", 0, MESSAGE, SenderScenarios.TESTER_ADDRESS, SenderScenarios.TESTER_KEY);
        scenario.checkRateWithinHint(INTERVAL_MS);
        scenario.destroyConnection();
        return scenario.expectResponse("WRITE", 2);
    }
}

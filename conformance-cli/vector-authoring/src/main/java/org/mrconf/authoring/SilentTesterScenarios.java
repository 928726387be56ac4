package org.mrconf.authoring;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The built-in scenarios in which the DUT sends and the tester acknowledges nothing: its ACKs are held back before
 * the first post, so every resend is the DUT's timer's. They judge the retransmission timer (clause 6.6.2), re-pathing
 * on expiry (6.6.4), spraying (10.2.1), and connection failure and what follows it (6.7.3, 6.7.4; one vector, since
 * each waits out the connection timeout) against the device's declared timers; see
 * {@code HeldAckChecks} in spec-cases for how, and {@link Scenarios} for the placeholders.
 */
final class SilentTesterScenarios {
    private static final long TESTER_ADDRESS = SenderScenarios.TESTER_ADDRESS;
    private static final long TESTER_KEY = SenderScenarios.TESTER_KEY;

    /** Far more than the initial windows of four paths let out before an ACK (32 packets each at the default). */
    private static final int HELD_BACK_WRITE = 2 << 20;

    private SilentTesterScenarios() {}

    static List<Scenario> all() {
        return List.of(
                timerResendsTheOldest(), timeoutChangesTheSourcePort(), spraysOverEveryPath(), afterTheFailure());
    }

    private static Scenario silentWrite(final Scenario scenario, final long wrId, final int length) {
        scenario.region("source", Math.max(length, 4096), 0x5A, "LOCAL_WRITE");
        scenario.holdAcks(true);
        return scenario.post("WRITE", 0, wrId, "source", 0, length, TESTER_ADDRESS, TESTER_KEY);
    }

    private static ObjectNode check(final Scenario scenario) {
        return scenario.steps.addObject().putObject("check");
    }

    private static Scenario timerResendsTheOldest() {
        final Scenario scenario = new Scenario(
                "6.6.2/dut-timer-resends-the-oldest-psn",
                "inopportune",
                "Ensure that the DUT, posting a 3000-byte WRITE over two paths that the tester never acknowledges"
                        + " (a lost tail), retransmits each path's oldest PSN again and again, each time within its"
                        + " declared maximum RTO and not before its minimum, the intervals starting at its initial"
                        + " RTO and doubling on each expiry up to the maximum, give or take the declared tolerance,"
                        + " and completes the WRITE once the tester acknowledges it",
                "6.6.2",
                "6.6.3");
        scenario.setup.put("paths", 2);
        silentWrite(scenario, 1100, 3000);
        check(scenario).put("resentOldest", true).put("backoff", true);
        scenario.holdAcks(false);
        return scenario.expectCompletion(1100, "SUCCESS", "WRITE");
    }

    private static Scenario timeoutChangesTheSourcePort() {
        final Scenario scenario = new Scenario(
                "6.6.4/dut-timeout-changes-the-source-port",
                "inopportune",
                "Ensure that the DUT, posting a WRITE over four paths that the tester never acknowledges, sends every"
                        + " retransmission from another UDP source port than the transmission of the same PSN before"
                        + " it (a new entropy value on each expiry), while its timer resends each path's oldest PSN",
                "6.6.4",
                "6.6.2");
        scenario.profiles.add("multipath");
        scenario.setup.put("paths", 4);
        silentWrite(scenario, 1110, 6000);
        check(scenario).put("resentOldest", true).put("newSourcePort", true);
        scenario.holdAcks(false);
        return scenario.expectCompletion(1110, "SUCCESS", "WRITE");
    }

    private static Scenario spraysOverEveryPath() {
        final Scenario scenario = new Scenario(
                "10.2.1/dut-sprays-over-every-path",
                "valid",
                "Ensure that the DUT, posting a 2 MiB WRITE over four paths that the tester does not acknowledge"
                        + " until the DUT stops sending new PSNs, has put new PSNs on every path by then, since data"
                        + " is held back for lack of window, and completes the WRITE once acknowledged",
                "10.2.1");
        scenario.profiles.add("multipath");
        scenario.setup.put("paths", 4);
        silentWrite(scenario, 1120, HELD_BACK_WRITE);
        check(scenario).put("everyPath", true);
        scenario.holdAcks(false);
        return scenario.expectCompletion(1120, "SUCCESS", "WRITE");
    }

    private static Scenario afterTheFailure() {
        final Scenario scenario = Scenarios.target(new Scenario(
                "6.7.4/dut-after-connection-failure",
                "inopportune",
                "Ensure that the DUT, posting a WRITE that the tester never acknowledges, fails the connection after its"
                        + " declared connection timeout (not before it less the tolerance, and within twice it): the"
                        + " WRITE completes with TRANSPORT_TIMEOUT, its posted receive completes FLUSHED, and a WRITE"
                        + " that names the connection afterwards is dropped and counted as for an unknown connection,"
                        + " never placed or acknowledged",
                "6.7.4",
                "6.7.3"));
        scenario.receive(0, "target", 0x1000, 1024, 1141);
        final int late = scenario.frame(
                0, Scenarios.write(0, 0, 0, 64, Scenarios.pattern(64, 94)).build());
        silentWrite(scenario, 1140, 64);
        check(scenario).putArray("failed").add(1140);
        scenario.sendFrames(late);
        // No never("NACK"): clause 11.2.1 lets the DUT answer an unknown connection with NACK UNKNOWN_CONNECTION.
        return scenario.expectCompletion(1140, "TRANSPORT_TIMEOUT", "WRITE")
                .expectCompletion(1141, "FLUSHED", "RECEIVE")
                .expectCounter("rx_unknown_connection", 1)
                .never("ACK")
                .expectRegion("target", 0, Scenarios.zeros(64));
    }
}

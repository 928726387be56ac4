package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutProfile;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The retransmission timer of the DUT as sender (clauses 6.6.1 to 6.6.4), judged only against the declared minimum,
 * initial and maximum RTO and the declared tolerance. The tester stays silent (a lost tail), so every resend is the
 * timer's; each interval is measured twice, by the DUT's own transmit timestamps and by the tester's clock, and the
 * case fails only when both say the same thing: too early by more than the tolerance, or too late by more than the
 * tolerance and half the expected value. When only one of the two clocks is out of bounds the link's timing cannot
 * decide, and the case says so.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Retransmission timer")
class TimerCase {
    private static final long REMOTE_ADDRESS = 0x00E0_0000L;
    private static final long REMOTE_KEY = 0x66;
    /** Expiries watched at most; enough to reach a maximum RTO of up to 2^7 times the initial one. */
    private static final int MAX_EXPIRIES = 9;

    @Test
    @DisplayName("the timer starts at the initial RTO, doubles on each silent expiry up to the maximum, and re-paths")
    @Verifies("6.6.2")
    @Verifies("6.6.3")
    @Verifies("6.6.4")
    void backsOffFromTheInitialRtoToTheMaximum(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DutProfile.Timers timers = testbed.profile().parameters().timers();
            if (timers.maxRto().compareTo(Duration.ofSeconds(2)) > 0) {
                throw Inconclusive.because("a declared maximum RTO of " + timers.maxRto()
                        + " would make this case take minutes; it watches at most 2 s intervals");
            }
            CaseSteps.stage(testbed, Testbed.BASE, 64, 1);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1000, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final long initialNs = timers.initialRto().toNanos();
            final long maxNs = timers.maxRto().toNanos();
            long expectedNs = initialNs;
            int atMax = 0;
            ReceivedPacket previous = testbed.peer().await(mark, ours(), Testbed.WAIT);
            for (int expiry = 1; expiry <= MAX_EXPIRIES && atMax < 2; expiry++) {
                final ReceivedPacket next = testbed.peer()
                        .recorder()
                        .awaitCount(
                                mark,
                                ours(),
                                expiry + 1,
                                Duration.ofNanos(3 * expectedNs).plus(Testbed.WAIT))
                        .get(expiry);
                judge(timers, previous, next, expectedNs, "6.6.3: interval before resend " + expiry);
                if (testbed.profile().claims(Profile.MULTIPATH)) {
                    assertThat(next.captured().sourcePort())
                            .as("6.6.4: resend %d after an expiry carries a new entropy", expiry)
                            .isNotEqualTo(previous.captured().sourcePort());
                }
                previous = next;
                if (expectedNs == maxNs) {
                    atMax++;
                }
                expectedNs = Math.min(maxNs, 2 * expectedNs);
            }
            testbed.peer().send(ackAll(previous));
        }
    }

    @Test
    @DisplayName("an ACK that advances the cumulative PSN restores the computed RTO after a backoff")
    @Verifies("6.6.3")
    @Verifies("6.6.2")
    void ackRestoresTheComputedRto(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DutProfile.Timers timers = testbed.profile().parameters().timers();
            CaseSteps.stage(testbed, Testbed.BASE, 64, 2);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1001, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            // Three silent expiries: the timer is now eight times the initial RTO (or the maximum).
            final List<ReceivedPacket> sent = testbed.peer()
                    .recorder()
                    .awaitCount(
                            mark, ours(), 4, timers.initialRto().multipliedBy(8).plus(Testbed.WAIT));
            final ReceivedPacket last = sent.get(3);
            final long sentAckNs = testbed.peer().link().nowNs();
            testbed.peer().send(ackAll(last));
            final long sampleUpperNs =
                    sentAckNs - last.receivedNs() + timers.tolerance().toNanos();
            final long backedOffNs =
                    Math.min(timers.maxRto().toNanos(), timers.initialRto().toNanos() * 16);
            // RFC 6298 after one sample S: SRTT = S, RTTVAR = S/2, RTO = 3 S, clamped.
            final long computedNs = clamp(timers, 3 * sampleUpperNs);
            if (computedNs + timers.tolerance().toNanos()
                    >= backedOffNs - timers.tolerance().toNanos()) {
                throw Inconclusive.because("the computed RTO (at most " + computedNs / 1000
                        + " us) and the backed-off one (" + backedOffNs / 1000
                        + " us) are not apart by twice the tolerance; the link's timing cannot decide");
            }
            // A new tail loss: its first resend must come on the computed RTO, not the backed-off one.
            final int again = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1002, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final List<ReceivedPacket> tail = testbed.peer()
                    .recorder()
                    .awaitCount(
                            again,
                            ours().msn(1),
                            2,
                            Duration.ofNanos(2 * backedOffNs).plus(Testbed.WAIT));
            final long byTester = tail.get(1).receivedNs() - tail.get(0).receivedNs();
            final long byDut = Psn.distance(
                    tail.get(0).data().orElseThrow().transmitTimestamp(),
                    tail.get(1).data().orElseThrow().transmitTimestamp());
            assertThat(Math.min(byTester, byDut))
                    .as(
                            "6.6.3: after the ACK the RTO is the computed one (at most %d us), not the backed-off %d us",
                            computedNs / 1000, backedOffNs / 1000)
                    .isLessThan(backedOffNs - timers.tolerance().toNanos());
            assertThat(Math.max(byTester, byDut))
                    .as("6.6.2: not below the declared minimum RTO less the tolerance")
                    .isGreaterThanOrEqualTo(
                            timers.minRto().minus(timers.tolerance()).toNanos());
            testbed.peer().send(ackAll(tail.get(1)));
        }
    }

    private static long clamp(final DutProfile.Timers timers, final long rtoNs) {
        return Math.max(timers.minRto().toNanos(), Math.min(timers.maxRto().toNanos(), rtoNs));
    }

    /**
     * Fails when both clocks put the interval between two transmissions outside what the declared timer allows, and
     * gives up when they disagree.
     */
    static void judge(
            final DutProfile.Timers timers,
            final ReceivedPacket previous,
            final ReceivedPacket next,
            final long expectedNs,
            final String what) {
        final long toleranceNs = timers.tolerance().toNanos();
        final long byTester = next.receivedNs() - previous.receivedNs();
        final long byDut = Psn.distance(
                previous.data().orElseThrow().transmitTimestamp(),
                next.data().orElseThrow().transmitTimestamp());
        final long lowest = expectedNs - toleranceNs;
        // Lateness is judged coarsely: the tester's own scheduling delays cannot be told from the DUT's, and what a
        // wrong timer does (no clamp, a doubling too many) is late by far more than half the expected value.
        final long highest = expectedNs + expectedNs / 2 + toleranceNs;
        final boolean testerOk = byTester >= lowest && byTester <= highest;
        final boolean dutOk = byDut >= lowest && byDut <= highest;
        if (testerOk != dutOk) {
            throw Inconclusive.because(what + ": the DUT's timestamps say " + byDut / 1000 + " us, the tester's clock "
                    + byTester / 1000 + " us; only one is within " + lowest / 1000 + " to " + highest / 1000 + " us");
        }
        assertThat(byTester)
                .as(
                        "%s: between %d and %d us (declared %d us, tolerance %d us); the DUT's timestamps say %d us",
                        what, lowest / 1000, highest / 1000, expectedNs / 1000, toleranceNs / 1000, byDut / 1000)
                .isBetween(lowest, highest);
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }

    private static org.mrconf.peer.PacketBuilder ackAll(final ReceivedPacket packet) {
        final DataPacket data = packet.data().orElseThrow();
        return CaseSteps.ack(data.header().pathId(), Psn.add(data.header().psn(), 1), data.transmitTimestamp());
    }
}

package org.mrconf.cases.reliability;

import java.io.IOException;
import java.util.Arrays;
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
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.HostStalled;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The RTT estimate of clause 6.6.1 over many samples, seen through the RTO of clause 6.6.2. A case that gives a path one
 * sample sees only its start (SRTT = R, RTTVAR = R / 2, RTO = 3 R); this one gives a path a run of samples whose ages
 * the tester sets by the timestamps its ACKs echo, then leaves the next packet unanswered and times its resend against
 * what RFC 6298's recursion gives for that run:
 *
 * <ul>
 *   <li>equal samples: RTTVAR decays by a quarter per sample, so after 16 samples of A the RTO is about 1.03 A, not the
 *       3 A of one sample;
 *   <li>one long sample, then short ones: SRTT forgets the long one by an eighth per sample, so after 4 A and seven of
 *       A the RTO is about 9.5 A, neither the 3 A of the last sample alone nor what a faster or slower average gives.
 * </ul>
 *
 * <p>Each sample is known only within bounds: at least the echo's age, at most that plus the time on the DUT's own clock
 * from the acknowledged packet to the next one it stamped, which it sent only after the completion showed the ACK
 * taken in. {@link RtoBounds} carries those bounds through the recursion, so the window the resend is judged against
 * holds every RTO a conforming device can arm, widened by the declared tolerance either way (clause 12.1.3); a miss
 * must show on both the tester's clock and the DUT's timestamps, and a miss no larger than a host stall is
 * INCONCLUSIVE. When the bounds are so wide that an estimate without smoothing would fit them too, the attempt proves
 * nothing and is made again on a new connection.
 */
@ExtendWith(DutExtension.class)
@DisplayName("RTT smoothing")
class RttSmoothingCase {
    private static final long REMOTE_ADDRESS = 0x00E8_0000L;
    private static final long REMOTE_KEY = 0x67;
    /** Connections tried while a host stall or a slow answer leaves each undecided. */
    private static final int ATTEMPTS = 3;
    /** Equal samples in the first test: RTTVAR is then 0.75^15 of its first value, 1.3% of it. */
    private static final int EQUAL_SAMPLES = 16;
    /** Short samples after the long one in the second test. */
    private static final int SHORT_SAMPLES = 7;
    /** How much longer the second test's first sample is than the others. */
    private static final int LONG_FACTOR = 4;

    @Test
    @DisplayName("over equal RTT samples the variance decays, so the RTO falls toward the smoothed RTT")
    @Verifies("6.6.1")
    @Verifies("6.6.2")
    void rttVarianceDecaysOverEqualSamples(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration.Timers timers = dut.profile().parameters().timers();
        // 3 A, the RTO without smoothing, at three quarters of the maximum RTO: below the clamp, so it shows.
        final long ageNs = Math.min(250_000_000L, timers.maxRto().toNanos() / 4);
        final long[] ages = new long[EQUAL_SAMPLES];
        Arrays.fill(ages, ageNs);
        watchAfterSamples(
                dut, ages, "6.6.1: the resend after " + EQUAL_SAMPLES + " RTT samples of " + ageNs / 1000 + " us each");
    }

    @Test
    @DisplayName("a long RTT sample stays in the smoothed RTT for several shorter ones after it")
    @Verifies("6.6.1")
    @Verifies("6.6.2")
    void smoothedRttRemembersALongSample(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration.Timers timers = dut.profile().parameters().timers();
        // The recursion's RTO, about 9.5 A, at two thirds of the maximum RTO: a smoothing that forgets too slowly shows
        // below the clamp as well as one that forgets too fast.
        final long ageNs = Math.min(100_000_000L, timers.maxRto().toNanos() / 14);
        final long[] ages = new long[1 + SHORT_SAMPLES];
        Arrays.fill(ages, ageNs);
        ages[0] = LONG_FACTOR * ageNs;
        watchAfterSamples(
                dut,
                ages,
                "6.6.1: the resend after one RTT sample of " + ages[0] / 1000 + " us and " + SHORT_SAMPLES + " of "
                        + ageNs / 1000 + " us");
    }

    private static void watchAfterSamples(final DeviceUnderTest dut, final long[] ages, final String what)
            throws Exception {
        final DeviceDeclaration.Timers timers = dut.profile().parameters().timers();
        final long minNs = timers.minRto().toNanos();
        final long maxNs = timers.maxRto().toNanos();
        final long toleranceNs = timers.tolerance().toNanos();
        final RtoBounds exact = RtoBounds.after(ages, ages).clamped(minNs, maxNs);
        final double unsmoothed = Math.max(minNs, Math.min(maxNs, 3.0 * ages[ages.length - 1]));
        if (Math.abs(unsmoothed - exact.lowestNs()) <= 2 * toleranceNs) {
            throw Inconclusive.because(String.format(
                    "the declared RTO bounds (%d to %d us) and tolerance (%d us) leave the smoothed RTO (%.0f us) and"
                            + " an unsmoothed one (%.0f us) no further apart than the tolerance allows; a wider"
                            + " minimum-to-maximum RTO range would let the case decide",
                    minNs / 1000, maxNs / 1000, toleranceNs / 1000, exact.lowestNs() / 1000, unsmoothed / 1000));
        }
        HostStalled.retry(ATTEMPTS, () -> {
            try (Testbed testbed = Testbed.open(dut, 1, 1)) {
                watchOnce(testbed, timers, ages, what);
            }
        });
    }

    /**
     * One one-packet WRITE per sample, each acknowledged at once with an echo {@code ages[i]} older than its packet's
     * timestamp and completed before the next is posted; then one more WRITE left unanswered, whose resend is judged.
     */
    private static void watchOnce(
            final Testbed testbed, final DeviceDeclaration.Timers timers, final long[] ages, final String what)
            throws Exception {
        CaseSteps.stage(testbed, Testbed.BASE, 64, 11);
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final long[] lowNs = new long[ages.length];
        final long[] highNs = new long[ages.length];
        DataPacket acknowledged = null;
        for (int message = 0; message <= ages.length; message++) {
            final long wrId = 1200 + message;
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final DataPacket data = testbed.peer()
                    .await(mark, ours().msn(message).firstTransmission(), Testbed.WAIT)
                    .data()
                    .orElseThrow();
            if (acknowledged != null) {
                // The DUT took the previous ACK in before the completion the tester waited for, so before it stamped
                // this packet: the sample is at most the echo's age plus that time on its own clock.
                highNs[message - 1] =
                        ages[message - 1] + Psn.distance(acknowledged.transmitTimestamp(), data.transmitTimestamp());
            }
            if (message == ages.length) {
                judgeResend(testbed, timers, mark, message, lowNs, highNs, what);
                return;
            }
            testbed.peer()
                    .send(CaseSteps.ack(
                            0, Psn.add(data.header().psn(), 1), Psn.add(data.transmitTimestamp(), -ages[message])));
            completions.awaitWrId(wrId, "6.6.1: one-packet message " + message + " of the RTT samples");
            lowNs[message] = ages[message];
            acknowledged = data;
        }
    }

    private static void judgeResend(
            final Testbed testbed,
            final DeviceDeclaration.Timers timers,
            final int mark,
            final long msn,
            final long[] lowNs,
            final long[] highNs,
            final String what)
            throws IOException {
        final long minNs = timers.minRto().toNanos();
        final long maxNs = timers.maxRto().toNanos();
        final long toleranceNs = timers.tolerance().toNanos();
        final RtoBounds allowed = RtoBounds.after(lowNs, highNs).clamped(minNs, maxNs);
        final int last = lowNs.length - 1;
        final RtoBounds unsmoothed = new RtoBounds(3.0 * lowNs[last], 3.0 * highNs[last]).clamped(minNs, maxNs);
        final List<ReceivedPacket> sent = testbed.peer()
                .recorder()
                .awaitCount(
                        mark,
                        ours().msn(msn),
                        2,
                        timers.maxRto().multipliedBy(2).plus(Testbed.WAIT));
        final ReceivedPacket original = sent.get(0);
        final ReceivedPacket resend = sent.get(1);
        // The samples' bounds come from how fast the tester answered; if they are so wide that an estimate without any
        // smoothing (3 x the last sample) fits them too, the attempt shows nothing about the recursion.
        if (unsmoothed.lowestNs() <= allowed.highestNs() + 2 * toleranceNs
                && unsmoothed.highestNs() >= allowed.lowestNs() - 2 * toleranceNs) {
            testbed.peer().send(ackOf(resend));
            throw new HostStalled(String.format(
                    "%s: the tester answered so slowly that its RTT samples are known only within %.0f to %.0f us of"
                            + " RTO, which an unsmoothed estimate would fit too; re-run on an idle host",
                    what, allowed.lowestNs() / 1000, allowed.highestNs() / 1000));
        }
        final long byTester = resend.receivedNs() - original.receivedNs();
        final long byDut = Psn.distance(
                original.data().orElseThrow().transmitTimestamp(),
                resend.data().orElseThrow().transmitTimestamp());
        testbed.peer().send(ackOf(resend));
        TimerCase.judgeBetween(
                byTester,
                byDut,
                (long) Math.floor(allowed.lowestNs()) - toleranceNs,
                (long) Math.ceil(allowed.highestNs()) + toleranceNs,
                String.format(
                        "%s (RFC 6298 gives an RTO of %.0f to %.0f us for samples within their bounds, clamped to the"
                                + " declared %d to %d us; tolerance %d us)",
                        what,
                        allowed.lowestNs() / 1000,
                        allowed.highestNs() / 1000,
                        minNs / 1000,
                        maxNs / 1000,
                        toleranceNs / 1000),
                testbed.stalls(),
                original.receivedNs(),
                resend.receivedNs());
    }

    private static org.mrconf.peer.PacketBuilder ackOf(final ReceivedPacket packet) {
        final DataPacket data = packet.data().orElseThrow();
        return CaseSteps.ack(0, Psn.add(data.header().psn(), 1), data.transmitTimestamp());
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }
}

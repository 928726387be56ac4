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
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.peer.StallMonitor;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The retransmission timer of the DUT as sender (clauses 6.6.1 to 6.6.4), judged only against the declared minimum,
 * initial and maximum RTO and the declared tolerance. The tester stays silent (a lost tail), so every resend is the
 * timer's; each interval is measured twice, by the DUT's own transmit timestamps and by the tester's clock, and the
 * case fails only when both say the same thing: too early by more than the tolerance, or too late by more than the
 * tolerance and the expected value. When only one of the two clocks is out of bounds the link's timing cannot
 * decide, and the case says so. Nor does it decide when both miss by no more than the tester host's longest stall
 * in the interval ({@link StallAllowance}): the host, not the timer, may have been late.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Retransmission timer")
class TimerCase {
    private static final long REMOTE_ADDRESS = 0x00E0_0000L;
    private static final long REMOTE_KEY = 0x66;
    /** The longest maximum RTO whose backoff a case watches: beyond it the case would take minutes. */
    private static final Duration LONGEST_WATCHED = Duration.ofSeconds(2);
    /** Expiries watched at most; enough to reach a maximum RTO of up to 2^7 times the initial one. */
    private static final int MAX_EXPIRIES = 9;

    @Test
    @DisplayName("the timer starts at the initial RTO, doubles on each silent expiry up to the maximum, and re-paths")
    @Verifies("6.6.2")
    @Verifies("6.6.3")
    @Verifies("6.6.4")
    void backsOffFromTheInitialRtoToTheMaximum(final DeviceUnderTest dut) throws Exception {
        backOffUnanswered(dut, 1000, 1, "6.6.3", true);
    }

    @Test
    @DisplayName("an ACK that advances the cumulative PSN restores the computed RTO after a backoff")
    @Verifies("6.6.3")
    @Verifies("6.6.2")
    void ackRestoresTheComputedRto(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            CaseSteps.stage(testbed, Testbed.BASE, 64, 2);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1001, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            // Five silent expiries: the timer is now 32 times the initial RTO (or the maximum), so that one that stays
            // backed off stands clear of the computed RTO even when a slow tester makes the RTT sample long.
            final List<ReceivedPacket> sent = testbed.peer()
                    .recorder()
                    .awaitCount(
                            mark,
                            ours(),
                            6,
                            timers.initialRto().multipliedBy(32).plus(Testbed.WAIT));
            final ReceivedPacket last = sent.get(5);
            testbed.peer().send(ackAll(last));
            // The completion shows the DUT took in the ACK (and its RTT sample) before the next message.
            new CaseSteps.CompletionLog(testbed.control()).awaitWrId(1001, "6.6.3: the first message");
            // A new tail loss: its first resend must come on the computed RTO, not the backed-off one.
            final int again = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1002, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final ReceivedPacket firstOfTail = testbed.peer().await(again, ours().msn(1), Testbed.WAIT);
            // RFC 6298 after one sample S: SRTT = S, RTTVAR = S/2, RTO = 3 S, clamped. S is bounded on the DUT's own
            // clock: it took the sample after stamping the resend the ACK echoes, and before stamping the next
            // message. (The tester's clock cannot bound it: S also holds the time the tester took to answer.)
            final long sampleNs = Psn.distance(
                    last.data().orElseThrow().transmitTimestamp(),
                    firstOfTail.data().orElseThrow().transmitTimestamp());
            final long computedNs = clamp(timers, 3 * sampleNs);
            final long backedOffNs = Math.min(timers.maxRto().toNanos(), 32 * computedNs);
            final long allowedNs = 2 * computedNs + timers.tolerance().toNanos();
            if (allowedNs >= backedOffNs - timers.tolerance().toNanos()) {
                throw Inconclusive.because("the computed RTO (at most about " + computedNs / 1000
                        + " us) and the backed-off one (" + backedOffNs / 1000
                        + " us) are not apart by twice the tolerance; the link's timing cannot decide");
            }
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
            StallAllowance.excuse(
                    testbed.stalls(),
                    "6.6.3: the first resend after the ACK",
                    StallAllowance.overNs(Math.min(byTester, byDut), allowedNs),
                    tail.get(0).receivedNs(),
                    tail.get(1).receivedNs());
            assertThat(Math.min(byTester, byDut))
                    .as(
                            "6.6.3: after the ACK the RTO is the computed one (about %d us, allowed %d us), not the"
                                    + " backed-off %d us",
                            computedNs / 1000, allowedNs / 1000, backedOffNs / 1000)
                    .isLessThanOrEqualTo(allowedNs);
            assertThat(Math.max(byTester, byDut))
                    .as("6.6.2: not below the declared minimum RTO less the tolerance")
                    .isGreaterThanOrEqualTo(
                            timers.minRto().minus(timers.tolerance()).toNanos());
            testbed.peer().send(ackAll(tail.get(1)));
        }
    }

    @Test
    @DisplayName("each path keeps its own RTT estimate, from the echoed timestamps of its own ACKs")
    @Verifies("6.6.1")
    void rttEstimatePerPathFromEchoedTimestamps(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration.Timers timers = dut.profile().parameters().timers();
        // Path 0's RTT samples are inflated as far as the declared maximum RTO leaves room for (RTO = 3 x RTT after
        // one sample), up to 150 ms, so that path 1's short RTO stands well apart from it even when the tester is
        // slow.
        final long inflatedNs = Math.min(150_000_000L, timers.maxRto().toNanos() / 3 - 1_000_000L);
        final long toleranceNs = timers.tolerance().toNanos();
        if (3 * inflatedNs - toleranceNs > timers.maxRto().toNanos()
                || 3 * inflatedNs - toleranceNs <= 2 * timers.minRto().toNanos() + 2 * toleranceNs) {
            throw Inconclusive.because("the declared RTO bounds leave no room between an inflated and a short RTT");
        }
        if (CaseSteps.declaredFirstWindow(dut.profile()) >= 2) {
            try (Testbed testbed = Testbed.open(dut, 2, 1)) {
                judgeBothAtOnce(
                        testbed,
                        timers,
                        inflatedNs,
                        EarlierSamples.NONE,
                        testbed.stalls().nowNs());
            }
            return;
        }
        // A first window of one packet (section 10; a device that declares none may have one). Windows that grow
        // (the congestion profile, 10.1.1 and 10.1.2) allow two packets in flight after one packet is acknowledged:
        // the case grows them, then watches both paths at once. Windows that stay at one packet (10.1.6) never have a
        // packet in flight on both paths at once: each path's timer is then watched in turn.
        String grown = null;
        if (dut.profile().claims(Profile.CONGESTION)) {
            try (Testbed testbed = Testbed.open(dut, 2, 1)) {
                final long samplingFromNs = testbed.stalls().nowNs();
                judgeBothAtOnce(testbed, timers, inflatedNs, growPastOnePacket(testbed, inflatedNs), samplingFromNs);
                return;
            } catch (final Inconclusive e) {
                grown = e.getMessage();
            }
        }
        try (Testbed testbed = Testbed.open(dut, 2, 1)) {
            judgeRttPerPathInTurn(testbed, timers, inflatedNs);
        } catch (final Inconclusive e) {
            throw grown == null
                    ? e
                    : Inconclusive.because("with the windows grown by one acknowledged packet: " + grown
                            + "; one packet at a time: " + e.getMessage());
        }
    }

    /**
     * One one-packet WRITE, acknowledged at once (path 0's ACK echoing a timestamp {@code inflatedNs} older than the
     * packet's), so that windows of one packet grow to two (1/W for the packet acknowledged, 10.1.1 and 10.1.2).
     *
     * @return the RTT sample the DUT took
     */
    private static EarlierSamples growPastOnePacket(final Testbed testbed, final long inflatedNs) throws Exception {
        CaseSteps.stage(testbed, Testbed.BASE, 64, 5);
        final int mark = testbed.peer().mark();
        final long wrId = 1002;
        testbed.control().postWrite(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
        final DataPacket data = testbed.peer()
                .await(mark, ours().msn(0).firstTransmission(), Testbed.WAIT)
                .data()
                .orElseThrow();
        final int path = data.header().pathId();
        final long echo = path == 0 ? Psn.add(data.transmitTimestamp(), -inflatedNs) : data.transmitTimestamp();
        testbed.peer().send(CaseSteps.ack(path, Psn.add(data.header().psn(), 1), echo));
        new CaseSteps.CompletionLog(testbed.control())
                .awaitWrId(wrId, "6.6.1: the one-packet message that grows the windows");
        return path == 0
                ? new EarlierSamples(1, 0, 0)
                : new EarlierSamples(0, path == 1 ? 1 : 0, data.transmitTimestamp());
    }

    /**
     * The RTT samples paths 0 and 1 took before the two-packet rounds: path 0's as inflated as theirs, path 1's
     * short, the last of them starting at the transmit timestamp {@code path1Stamp}.
     */
    private record EarlierSamples(int path0, int path1, long path1Stamp) {
        static final EarlierSamples NONE = new EarlierSamples(0, 0, 0);
    }

    /**
     * Clause 6.6.1 for a sender with two packets in flight: a two-packet WRITE per round, one packet on each path.
     *
     * @param earlier the RTT samples paths 0 and 1 took before
     */
    private static void judgeBothAtOnce(
            final Testbed testbed,
            final DeviceDeclaration.Timers timers,
            final long inflatedNs,
            final EarlierSamples earlier,
            final long samplingFromNs)
            throws Exception {
        final long toleranceNs = timers.tolerance().toNanos();
        final long firstMsn = earlier.path0() + earlier.path1();
        final int payload = testbed.connection().maxPayload(Opcode.WRITE);
        CaseSteps.stage(testbed, Testbed.BASE, 2 * payload, 5);
        // First message: one packet per path; path 0's ACK echoes a timestamp older than its packet's.
        final List<DataPacket> first = onePerPath(testbed, 1003, firstMsn, 2 * payload);
        final DataPacket slow = first.get(0);
        final DataPacket fast = first.get(1);
        testbed.peer()
                .send(CaseSteps.ack(
                        0, Psn.add(slow.header().psn(), 1), Psn.add(slow.transmitTimestamp(), -inflatedNs)));
        testbed.peer().send(CaseSteps.ack(1, Psn.add(fast.header().psn(), 1), fast.transmitTimestamp()));
        new CaseSteps.CompletionLog(testbed.control()).awaitWrId(1003, "6.6.1: the first message");

        // Second message, a lost tail on both paths: each path's timer follows its own estimate.
        final int mark = testbed.peer().mark();
        final List<DataPacket> second = onePerPath(testbed, 1004, firstMsn + 1, 2 * payload);
        final ReceivedPacket[] resends = new ReceivedPacket[2];
        final ReceivedPacket[] originals = new ReceivedPacket[2];
        for (int path = 0; path < 2; path++) {
            final List<ReceivedPacket> sent = testbed.peer()
                    .recorder()
                    .awaitCount(
                            mark,
                            ours().msn(firstMsn + 1).path(path),
                            2,
                            timers.maxRto().plus(Testbed.WAIT));
            originals[path] = sent.get(0);
            resends[path] = sent.get(1);
        }
        // RTO = SRTT + 4 RTTVAR (6.6.1): after k samples of at least the inflated RTT R, SRTT >= R and RTTVAR >=
        // (3/4)^(k-1)
        // R/2, so RTO >= R (1 + 2 (3/4)^(k-1)): 3 R after one sample.
        final long slowLowest = (long) (inflatedNs * (1 + 2 * Math.pow(0.75, earlier.path0()))) - toleranceNs;
        final long slowByTester = resends[0].receivedNs() - originals[0].receivedNs();
        assertThat(Math.max(slowByTester, interval(originals[0], resends[0])))
                .as(
                        "6.6.1: path 0's RTO follows its %d ms RTT samples (RTO = 3 x RTT), not before %d us",
                        inflatedNs / 1_000_000, slowLowest / 1000)
                .isGreaterThanOrEqualTo(slowLowest);
        // Path 1's RTT sample, bounded on the DUT's own clock: it took the sample when the ACK came, before it
        // stamped the second message's packet on that path. (The tester's clock cannot bound it: the DUT's
        // sample also holds the time the tester took to answer, which a loaded tester stretches.)
        final long fastSampleNs =
                Psn.distance(fast.transmitTimestamp(), second.get(1).transmitTimestamp());
        // After one sample of at most S, RTO = 3 S; after more, each at most S, SRTT <= S and RTTVAR <= S: RTO <= 5 S.
        final long fastSampleBoundNs = earlier.path1() == 0
                ? fastSampleNs
                : Math.max(fastSampleNs, Psn.distance(earlier.path1Stamp(), fast.transmitTimestamp()));
        final long fastHighest = 2 * clamp(timers, (earlier.path1() == 0 ? 3 : 5) * fastSampleBoundNs) + toleranceNs;
        if (fastHighest >= slowLowest) {
            throw Inconclusive.because(String.format(
                    "path 1's RTT sample may have been up to %d us long, too close to path 0's %d ms to tell"
                            + " their RTOs apart",
                    fastSampleBoundNs / 1000, inflatedNs / 1_000_000));
        }
        assertFastPathResend(testbed, originals[1], resends[1], fastHighest, samplingFromNs);
        assertThat(second).hasSize(2);
    }

    private static final int IN_TURN_MESSAGES = 16;

    /**
     * Clause 6.6.1 for a sender that may have one packet in flight: one-packet WRITEs, one at a time, each completed
     * before the next is posted. Every ACK of path 0 echoes a timestamp {@code inflatedNs} older than its packet's, so
     * each of its RTT samples, and its smoothed RTT, is at least that; path 1's ACKs echo their packet's own. Once a
     * path has a sample, the next packet on it goes unanswered and its resend is timed: path 0's RTO is at least its
     * smoothed RTT (RFC 6298), path 1's at most five times its longest sample (SRTT + 4 RTTVAR), each sample bounded on
     * the DUT's clock by the next packet it stamped after the ACK (the completion came first). Path 1 is watched only
     * while no watch of path 0 came between its last ACK and its packet, so that its samples stay short.
     */
    private static void judgeRttPerPathInTurn(
            final Testbed testbed, final DeviceDeclaration.Timers timers, final long inflatedNs) throws Exception {
        final long samplingFromNs = testbed.stalls().nowNs();
        CaseSteps.stage(testbed, Testbed.BASE, 64, 5);
        final long toleranceNs = timers.tolerance().toNanos();
        final ReceivedPacket[] originals = new ReceivedPacket[2];
        final ReceivedPacket[] resends = new ReceivedPacket[2];
        final DataPacket[] lastAcked = new DataPacket[2];
        boolean watchedSinceLastAckOfPath1 = false;
        long longestFastSampleNs = 0;
        DataPacket previousAck = null;
        for (int message = 0; message < IN_TURN_MESSAGES && (resends[0] == null || resends[1] == null); message++) {
            final long wrId = 1010 + message;
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final ReceivedPacket first =
                    testbed.peer().await(mark, ours().msn(message).firstTransmission(), Testbed.WAIT);
            final DataPacket data = first.data().orElseThrow();
            final int path = data.header().pathId();
            if (previousAck != null && previousAck.header().pathId() == 1) {
                // The DUT took the ACK of path 1's previous packet before it stamped this one (the message completed).
                longestFastSampleNs = Math.max(
                        longestFastSampleNs, Psn.distance(previousAck.transmitTimestamp(), data.transmitTimestamp()));
            }
            final boolean watch = path < 2
                    && resends[path] == null
                    && lastAcked[path] != null
                    && (path == 0 || !watchedSinceLastAckOfPath1);
            DataPacket answered = data;
            if (watch) {
                final List<ReceivedPacket> sent = testbed.peer()
                        .recorder()
                        .awaitCount(
                                mark,
                                ours().msn(message).path(path),
                                2,
                                timers.maxRto().plus(Testbed.WAIT));
                originals[path] = sent.get(0);
                resends[path] = sent.get(1);
                answered = sent.get(1).data().orElseThrow();
                watchedSinceLastAckOfPath1 = path == 0 || watchedSinceLastAckOfPath1;
            }
            final long echo =
                    path == 0 ? Psn.add(answered.transmitTimestamp(), -inflatedNs) : answered.transmitTimestamp();
            testbed.peer().send(CaseSteps.ack(path, Psn.add(data.header().psn(), 1), echo));
            new CaseSteps.CompletionLog(testbed.control()).awaitWrId(wrId, "6.6.1: one-packet message " + message);
            if (path < 2) {
                lastAcked[path] = answered;
                if (path == 1) {
                    watchedSinceLastAckOfPath1 = false;
                }
            }
            previousAck = answered;
        }
        if (resends[0] == null || resends[1] == null) {
            throw Inconclusive.because("in " + IN_TURN_MESSAGES + " one-packet messages the DUT did not put a packet"
                    + " on each of paths 0 and 1 after a sample there, so their timers could not be compared; a first"
                    + " window of two packets would let the case watch both at once");
        }
        final long slowLowest = inflatedNs - toleranceNs;
        final long slowByTester = resends[0].receivedNs() - originals[0].receivedNs();
        assertThat(Math.max(slowByTester, interval(originals[0], resends[0])))
                .as(
                        "6.6.1: path 0's RTO follows its RTT samples of at least %d ms (RTO >= SRTT), not before %d us",
                        inflatedNs / 1_000_000, slowLowest / 1000)
                .isGreaterThanOrEqualTo(slowLowest);
        final long fastHighest = 2 * clamp(timers, 5 * longestFastSampleNs) + toleranceNs;
        if (longestFastSampleNs == 0 || fastHighest >= slowLowest) {
            throw Inconclusive.because(String.format(
                    "path 1's RTT samples may have been up to %d us long, too close to path 0's %d ms to tell their"
                            + " RTOs apart",
                    longestFastSampleNs / 1000, inflatedNs / 1_000_000));
        }
        assertFastPathResend(testbed, originals[1], resends[1], fastHighest, samplingFromNs);
    }

    /**
     * Path 1's resend came no later than {@code fastHighest} after its original, by the tester's clock or the DUT's own
     * timestamps, whichever is shorter; a miss within a host stall is inconclusive.
     */
    private static void assertFastPathResend(
            final Testbed testbed,
            final ReceivedPacket original,
            final ReceivedPacket resend,
            final long fastHighest,
            final long samplingFromNs) {
        final long waitedNs = Math.min(resend.receivedNs() - original.receivedNs(), interval(original, resend));
        StallAllowance.excuse(
                testbed.stalls(),
                "6.6.1: path 1's resend",
                StallAllowance.overNs(waitedNs, fastHighest),
                original.receivedNs(),
                resend.receivedNs());
        // A stall while the DUT took in one of path 1's samples lengthens that sample, and an RTO of SRTT + 4 RTTVAR
        // (RFC 6298) by up to 1.125 times it; with the stall inside the wait itself, a miss up to 2.125 times the
        // longest stall since the samples began may be the host's.
        final long longest = testbed.stalls().longestStallNs(samplingFromNs, resend.receivedNs());
        StallAllowance.reason(
                        "6.6.1: path 1's resend (a stall in a sample grows the RTO by up to 1.125 times it)",
                        StallAllowance.overNs(waitedNs, fastHighest),
                        longest + longest * 9 / 8)
                .ifPresent(reason -> {
                    throw Inconclusive.because(reason);
                });
        assertThat(waitedNs)
                .as("6.6.1: path 1's RTO follows its own short RTT, not path 0's: at most %d us", fastHighest / 1000)
                .isLessThanOrEqualTo(fastHighest);
    }

    /** Posts a two-packet WRITE and returns its first transmissions, path 0's first; inconclusive unless one per path. */
    private static List<DataPacket> onePerPath(final Testbed testbed, final long wrId, final long msn, final int length)
            throws Exception {
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, length), REMOTE_ADDRESS, REMOTE_KEY);
        final List<DataPacket> sent =
                testbed
                        .peer()
                        .recorder()
                        .awaitCount(mark, ours().msn(msn).firstTransmission(), 2, Testbed.WAIT)
                        .stream()
                        .map(p -> p.data().orElseThrow())
                        .sorted(java.util.Comparator.comparingInt(
                                p -> p.header().pathId()))
                        .toList();
        if (sent.get(0).header().pathId() != 0 || sent.get(1).header().pathId() != 1) {
            throw Inconclusive.because("the DUT put both packets of a two-packet message on one path: " + sent);
        }
        return sent;
    }

    private static long interval(final ReceivedPacket a, final ReceivedPacket b) {
        return Psn.distance(
                a.data().orElseThrow().transmitTimestamp(),
                b.data().orElseThrow().transmitTimestamp());
    }

    private static long clamp(final DeviceDeclaration.Timers timers, final long rtoNs) {
        return Math.max(timers.minRto().toNanos(), Math.min(timers.maxRto().toNanos(), rtoNs));
    }

    /**
     * Posts a one-packet WRITE (work request {@code wrId}, staged with {@code seed}) that the tester never
     * acknowledges, and watches its resends from the initial RTO, doubling on each expiry, until two intervals at the
     * declared maximum; judges each interval (and, with {@code repath} on a multipath device, that each resend carries
     * a new entropy, clause 6.6.4), then acknowledges the last resend. A declared maximum RTO above
     * {@link #LONGEST_WATCHED} is INCONCLUSIVE.
     */
    static void backOffUnanswered(
            final DeviceUnderTest dut, final long wrId, final int seed, final String clause, final boolean repath)
            throws Exception {
        // The backoff is watched over seconds of intervals: a host stall in any one leaves the attempt undecided, and
        // a new connection may meet none.
        org.mrconf.peer.HostStalled.retry(STALLED_ATTEMPTS, () -> backOffOnce(dut, wrId, seed, clause, repath));
    }

    /** How many connections {@link #backOffUnanswered} tries while a host stall leaves each undecided. */
    private static final int STALLED_ATTEMPTS = 3;

    private static void backOffOnce(
            final DeviceUnderTest dut, final long wrId, final int seed, final String clause, final boolean repath)
            throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            if (timers.maxRto().compareTo(LONGEST_WATCHED) > 0) {
                throw Inconclusive.because("a declared maximum RTO of " + timers.maxRto()
                        + " would make this case take minutes; it watches at most " + LONGEST_WATCHED.toSeconds()
                        + " s intervals");
            }
            CaseSteps.stage(testbed, Testbed.BASE, 64, seed);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            testbed.peer().send(ackAll(watchBackoff(testbed, mark, clause, repath)));
        }
    }

    /** The resends of {@link #backOffUnanswered}; returns the last one. */
    private static ReceivedPacket watchBackoff(
            final Testbed testbed, final int mark, final String clause, final boolean repath) {
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        final long maxNs = timers.maxRto().toNanos();
        long expectedNs = timers.initialRto().toNanos();
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
            judge(timers, previous, next, expectedNs, clause + ": interval before resend " + expiry, testbed.stalls());
            if (repath && testbed.profile().claims(Profile.MULTIPATH)) {
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
        return previous;
    }

    /**
     * Fails when both clocks put the interval between two transmissions outside what the declared timer allows, and
     * gives up when they disagree, or when both miss by no more than the host's longest stall in the interval.
     */
    static void judge(
            final DeviceDeclaration.Timers timers,
            final ReceivedPacket previous,
            final ReceivedPacket next,
            final long expectedNs,
            final String what,
            final StallMonitor stalls) {
        final long byTester = next.receivedNs() - previous.receivedNs();
        final long byDut = Psn.distance(
                previous.data().orElseThrow().transmitTimestamp(),
                next.data().orElseThrow().transmitTimestamp());
        judge(timers, byTester, byDut, expectedNs, what, stalls, previous.receivedNs(), next.receivedNs());
    }

    /** {@link #judge(DeviceDeclaration.Timers, ReceivedPacket, ReceivedPacket, long, String, StallMonitor)} on its numbers. */
    static void judge(
            final DeviceDeclaration.Timers timers,
            final long byTester,
            final long byDut,
            final long expectedNs,
            final String what,
            final StallMonitor stalls,
            final long fromNs,
            final long toNs) {
        final long toleranceNs = timers.tolerance().toNanos();
        // Lateness is judged coarsely: the tester's own scheduling delays cannot be told from the DUT's, and what a
        // wrong timer does (no clamp, a doubling too many) is late by at least the expected value.
        judgeBetween(
                byTester,
                byDut,
                expectedNs - toleranceNs,
                2 * expectedNs + toleranceNs,
                String.format("%s (declared %d us, tolerance %d us)", what, expectedNs / 1000, toleranceNs / 1000),
                stalls,
                fromNs,
                toNs);
    }

    /**
     * Fails when both clocks put an interval outside {@code [lowest, highest]}; gives up when they disagree, or when
     * both miss by no more than the host's longest stall in the interval.
     */
    static void judgeBetween(
            final long byTester,
            final long byDut,
            final long lowest,
            final long highest,
            final String what,
            final StallMonitor stalls,
            final long fromNs,
            final long toNs) {
        final boolean testerOk = byTester >= lowest && byTester <= highest;
        final boolean dutOk = byDut >= lowest && byDut <= highest;
        if (dutOk && !testerOk) {
            // The DUT's own stamps are in range and the tester's receipt is off by no more than a stall of the tester's
            // host around it (an earlier packet received late makes the interval look short): the tester's clock is
            // the one the host held back, so the DUT's decides.
            final long testerMissNs = StallAllowance.missNs(byTester, lowest, highest);
            if (testerMissNs <= stalls.longestStallNs(fromNs - testerMissNs, toNs)) {
                return;
            }
        }
        if (testerOk != dutOk) {
            throw Inconclusive.because(what + ": the DUT's timestamps say " + byDut / 1000 + " us, the tester's clock "
                    + byTester / 1000 + " us; only one is within " + lowest / 1000 + " to " + highest / 1000 + " us");
        }
        StallAllowance.excuse(
                stalls,
                what,
                Math.min(
                        StallAllowance.missNs(byTester, lowest, highest),
                        StallAllowance.missNs(byDut, lowest, highest)),
                fromNs,
                toNs);
        assertThat(byTester)
                .as(
                        "%s: between %d and %d us; the DUT's timestamps say %d us",
                        what, lowest / 1000, highest / 1000, byDut / 1000)
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

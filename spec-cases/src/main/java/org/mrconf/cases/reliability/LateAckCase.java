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
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.PathState;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * What a late ACK (Table 5-13: its cumulative PSN is behind the path's and it acknowledges nothing new) does to the
 * DUT's retransmission timer: its echo gives an RTT sample, but it does not restore the computed RTO (clause 6.6.3).
 * {@code CongestionCase.aLateAckDoesNotReplaceTheHint} judges its rate hint.
 *
 * <p>The DUT's first message is acknowledged at once, so its path has a cumulative PSN a later ACK can lag behind.
 * The second message is a lost tail: after {@value #EXPIRIES} silent expiries the timer runs with 2^{@value #EXPIRIES}
 * times the computed RTO. The tester then sends a late ACK that repeats the state before the first message, echoing
 * the newest resend (a short RTT sample, so that even a DUT that takes it into its estimate keeps its computed RTO
 * short). The expiry already scheduled comes as it was; the one after it must come after twice the backed-off RTO,
 * not after twice a restored one. Intervals are judged on both clocks, as in {@link TimerCase}, against a floor that
 * holds for every conforming reading: the declared minimum RTO doubled once per expiry.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Late ACKs")
class LateAckCase {
    private static final long REMOTE_ADDRESS = 0x00E5_0000L;
    private static final long REMOTE_KEY = 0x65;
    private static final int EXPIRIES = 6;
    /** The longest this case waits for the DUT's backoff; beyond it the declared timers make the case too slow. */
    private static final Duration LONGEST_WATCHED = Duration.ofSeconds(15);
    /** How long path_status may lag behind the packet that shows the DUT acted. */
    private static final Duration SETTLE = Duration.ofMillis(200);

    @Test
    @DisplayName("a late ACK during a backoff does not restore the computed RTO")
    @Verifies("6.6.3")
    void aLateAckDoesNotEndTheBackoff(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            CaseSteps.stage(testbed, Testbed.BASE, 64, 65);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1401, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final DataPacket first =
                    testbed.peer().await(mark, ours(0), Testbed.WAIT).data().orElseThrow();
            final long firstPsn = first.header().psn();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(firstPsn, 1), first.transmitTimestamp()));
            new CaseSteps.CompletionLog(testbed.control()).awaitWrId(1401, "6.6.3: the first message");

            final int tailMark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1402, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final DataPacket tail =
                    testbed.peer().await(tailMark, ours(1), Testbed.WAIT).data().orElseThrow();
            // The DUT took its one RTT sample after stamping the first message and before stamping the tail (its own
            // clock), so its computed RTO is at most three times that span, clamped (RFC 6298 after one sample).
            final long sampleNs = Psn.distance(first.transmitTimestamp(), tail.transmitTimestamp());
            final Duration watch = watch(timers, clamp(timers, 3 * sampleNs), EXPIRIES + 2);
            if (watch.compareTo(LONGEST_WATCHED) > 0) {
                throw Inconclusive.because("the declared timers and an RTT sample of up to " + sampleNs / 1000
                        + " us would need " + watch.toMillis() + " ms of backoff; this case watches at most "
                        + LONGEST_WATCHED.toMillis() + " ms");
            }
            final ReceivedPacket newest =
                    transmissions(testbed, tailMark, EXPIRIES + 1, watch).get(EXPIRIES);
            // Late: its cumulative PSN is the first message's, which the path's cumulative PSN has passed.
            final int lateMark = testbed.peer().mark();
            testbed.peer()
                    .send(CaseSteps.ack(0, firstPsn, newest.data().orElseThrow().transmitTimestamp()));
            final List<ReceivedPacket> after = transmissions(testbed, tailMark, EXPIRIES + 3, watch);
            final ReceivedPacket scheduled = after.get(EXPIRIES + 1);
            final ReceivedPacket next = after.get(EXPIRIES + 2);
            if (scheduled.index() < lateMark) {
                throw Inconclusive.because("the expiry after the late ACK came before the tester could send it; the"
                        + " interval it would judge was already running");
            }
            // Every conforming reading runs this interval with at least the declared minimum RTO doubled once per
            // expiry so far (or the maximum RTO); only a floor is judged, since the computed RTO may be longer.
            final long floorNs =
                    Math.min(timers.maxRto().toNanos(), timers.minRto().toNanos() << (EXPIRIES + 1));
            final long lowestNs = floorNs - timers.tolerance().toNanos();
            final long byTester = next.receivedNs() - scheduled.receivedNs();
            final long byDut = Psn.distance(
                    scheduled.data().orElseThrow().transmitTimestamp(),
                    next.data().orElseThrow().transmitTimestamp());
            if ((byTester < lowestNs) != (byDut < lowestNs)) {
                throw Inconclusive.because("after the late ACK the DUT's timestamps say " + byDut / 1000
                        + " us between expiries, the tester's clock " + byTester / 1000 + " us; only one is below "
                        + lowestNs / 1000 + " us");
            }
            StallAllowance.excuse(
                    testbed.stalls(),
                    "6.6.3: the interval after the late ACK",
                    Math.min(StallAllowance.underNs(byTester, lowestNs), StallAllowance.underNs(byDut, lowestNs)),
                    scheduled.receivedNs(),
                    next.receivedNs());
            assertThat(byDut)
                    .as(
                            "6.6.3: after a late ACK the next interval stays backed off: at least the declared minimum"
                                    + " RTO doubled %d times or the maximum RTO, %d us less the tolerance (the tester's"
                                    + " clock says %d us)",
                            EXPIRIES + 1, floorNs / 1000, byTester / 1000)
                    .isGreaterThanOrEqualTo(lowestNs);
            final DataPacket last = next.data().orElseThrow();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(last.header().psn(), 1), last.transmitTimestamp()));
        }
    }

    @Test
    @DisplayName("a late ACK does not reset the count of consecutive expiries: the threshold-th expiry still fails the"
            + " path")
    @Verifies("6.6.3")
    @Verifies("6.7.1")
    void aLateAckDoesNotResetTheExpiryCount(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final int threshold = testbed.profile().parameters().timers().unhealthyThreshold();
            final Tail tail = silentTail(testbed, 1411);
            // threshold - 1 expiries: the path is still healthy, one expiry short of failing.
            final ReceivedPacket beforeLast = tail.transmission(threshold - 1);
            requireHealthy(
                    testbed, true, "after " + (threshold - 1) + " expiries, one short of the declared threshold");
            final int lateMark = testbed.peer().mark();
            tail.sendLateAck(beforeLast);
            sync(testbed);
            if (!testbed.peer().recorder().matching(lateMark, tail.matcher).isEmpty()) {
                throw Inconclusive.because("the threshold-th expiry came before the DUT had answered the tester's"
                        + " PROBE sent after the late ACK, so the late ACK may have come after it");
            }
            tail.transmission(threshold);
            assertThat(awaitHealthy(testbed, false))
                    .as(
                            "6.6.3: a late ACK after %d expiries did not reset their count, so expiry %d (the declared"
                                    + " threshold) marks the path unhealthy (6.7.1); path_status says healthy",
                            threshold - 1, threshold)
                    .isFalse();
            tail.acknowledgeAll();
        }
    }

    @Test
    @DisplayName("a late ACK does not mark an unhealthy path healthy; the next ACK that is not late does")
    @Verifies("6.7.2")
    void aLateAckDoesNotHealAPath(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final int threshold = testbed.profile().parameters().timers().unhealthyThreshold();
            final Tail tail = silentTail(testbed, 1421);
            final ReceivedPacket failing = tail.transmission(threshold);
            if (awaitHealthy(testbed, false)) {
                throw Inconclusive.because("path_status still says healthy after " + threshold
                        + " expiries (the declared threshold); clause 6.7.1 is judged by PathHealthCase");
            }
            tail.sendLateAck(failing);
            sync(testbed);
            assertThat(pathState(testbed).healthy())
                    .as("6.7.2: a late ACK (cumulative PSN behind, nothing new acknowledged) marks no path healthy")
                    .isFalse();
            tail.acknowledgeAll();
            assertThat(awaitHealthy(testbed, true))
                    .as("6.7.2: the first ACK of the path that is not late marks it healthy again")
                    .isTrue();
        }
    }

    /**
     * A one-packet WRITE the tester never acknowledges, after a first message acknowledged with an old echo: the
     * DUT's RTO is then about {@link #stretch} times three, so that each interval between its expiries leaves the
     * tester ample time to act on a loaded host. Not applicable without {@code path_status}, which tells the path's
     * health.
     */
    private static Tail silentTail(final Testbed testbed, final long wrId) throws Exception {
        if (testbed.control().pathStatus(Testbed.DUT_CONNECTION).isEmpty()) {
            throw org.mrconf.cases.NotApplicable.because(
                    "the agent offers no path_status (optional), and path health is not on the wire");
        }
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        final Duration stretch = stretch(timers);
        CaseSteps.stage(testbed, Testbed.BASE, 64, wrId);
        final int stretchMark = testbed.peer().mark();
        CaseSteps.stretchTheTimer(testbed, stretch, wrId, Testbed.BASE, 64);
        final DataPacket stretched = testbed.peer()
                .await(stretchMark, DutTraffic.dataFromDut(), Testbed.WAIT)
                .data()
                .orElseThrow();
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(CaseSteps.request(testbed, 0, wrId + 1, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
        final ReceivedPacket first = testbed.peer().await(mark, ours(1), Testbed.WAIT);
        // The DUT's sample: its clock when the stretch's ACK came (before it stamped the tail) less the aged echo.
        final long sampleNs = Psn.distance(
                        stretched.transmitTimestamp(),
                        first.data().orElseThrow().transmitTimestamp())
                + stretch.toNanos();
        final int threshold = timers.unhealthyThreshold();
        final Duration watch = watch(timers, clamp(timers, 3 * sampleNs), threshold + 1);
        if (watch.compareTo(LONGEST_WATCHED) > 0) {
            throw Inconclusive.because("the declared timers would need " + watch.toMillis() + " ms for " + threshold
                    + " expiries; this case watches at most " + LONGEST_WATCHED.toMillis() + " ms");
        }
        return new Tail(testbed, mark, first, watch);
    }

    /** The RTT the tester makes the DUT estimate: 20 ms, or less where the declared maximum RTO is short. */
    private static Duration stretch(final DeviceDeclaration.Timers timers) {
        final Duration room = timers.maxRto().dividedBy(6);
        return room.compareTo(Duration.ofMillis(20)) < 0 ? room : Duration.ofMillis(20);
    }

    /** The case's silent WRITE on path 0 and the tester's answers to it. */
    private static final class Tail {
        private final Testbed testbed;
        private final int mark;
        private final DataPacket first;
        private final Duration watch;
        private final PacketMatcher matcher = ours(1);

        Tail(final Testbed testbed, final int mark, final ReceivedPacket first, final Duration watch) {
            this.testbed = testbed;
            this.mark = mark;
            this.first = first.data().orElseThrow();
            this.watch = watch;
        }

        /** Transmission {@code n} of the tail (0 the original, n the resend of the n-th expiry). */
        ReceivedPacket transmission(final int n) {
            return transmissions(testbed, mark, n + 1, watch).get(n);
        }

        /**
         * A late ACK of path 0: its cumulative PSN is the stretch message's, which the path's cumulative PSN has
         * passed, and it acknowledges nothing new (the state before the stretch message arrived).
         */
        void sendLateAck(final ReceivedPacket newest) throws java.io.IOException {
            testbed.peer()
                    .send(CaseSteps.ack(
                            0,
                            Psn.add(first.header().psn(), -1),
                            newest.data().orElseThrow().transmitTimestamp()));
        }

        void acknowledgeAll() throws java.io.IOException {
            final List<ReceivedPacket> sent = testbed.peer().recorder().matching(mark, matcher);
            final DataPacket last = sent.get(sent.size() - 1).data().orElseThrow();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(first.header().psn(), 1), last.transmitTimestamp()));
        }
    }

    /**
     * Sends a PROBE on path 0 and waits for the DUT's ACK that echoes it: the DUT has then taken in what the tester
     * sent before (one connection, one path, in order).
     */
    private static void sync(final Testbed testbed) throws java.io.IOException {
        final long stamp = 0x5EC0_0000L | (testbed.peer().mark() & 0xFFFF);
        final int mark = testbed.peer().mark();
        testbed.peer()
                .send(PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(0)
                        .psn(testbed.connection().nextPsn(0))
                        .transmitTimestamp(stamp)
                        .ackRequest());
        if (testbed.peer()
                .recorder()
                .awaitFirst(mark, DutTraffic.ackOf(0).echoedTimestamp(stamp), Testbed.WAIT)
                .isEmpty()) {
            throw Inconclusive.because(
                    "the DUT did not answer the tester's PROBE (5.5.1 is judged by AckNackProbeCase),"
                            + " so the case cannot tell when it took in the late ACK");
        }
    }

    private static void requireHealthy(final Testbed testbed, final boolean healthy, final String when)
            throws Exception {
        if (pathState(testbed).healthy() != healthy) {
            throw Inconclusive.because("path_status says " + (healthy ? "unhealthy " : "healthy ") + when
                    + "; the declared threshold is judged by PathHealthCase");
        }
    }

    /**
     * Polls path_status for up to {@link #SETTLE} until path 0's health is {@code expected}; returns the last health
     * read. The DUT marks a path when it acts on an expiry or an ACK, which it may finish just after its packet left.
     */
    private static boolean awaitHealthy(final Testbed testbed, final boolean expected) throws Exception {
        final long deadline = System.nanoTime() + SETTLE.toNanos();
        boolean healthy = pathState(testbed).healthy();
        while (healthy != expected && System.nanoTime() - deadline < 0) {
            Thread.sleep(5);
            healthy = pathState(testbed).healthy();
        }
        return healthy;
    }

    private static PathState pathState(final Testbed testbed) throws Exception {
        return testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> new AssertionError("path_status went away during the case"))
                .get(0);
    }

    /**
     * The first {@code count} transmissions of the tail; the case cannot decide without them (the timer's own
     * schedule is {@link TimerCase}'s to judge).
     */
    private static List<ReceivedPacket> transmissions(
            final Testbed testbed, final int mark, final int count, final Duration watch) {
        try {
            return testbed.peer().recorder().awaitCount(mark, ours(1), count, watch);
        } catch (final AssertionError missing) {
            throw Inconclusive.because("fewer than " + count + " transmissions of the tail came within " + watch
                    + "; the timer's schedule is judged by TimerCase: " + missing.getMessage());
        }
    }

    /**
     * How long {@code expiries} expiries take at most, from a computed RTO of {@code rtoNs} doubling up to the
     * declared maximum, each late by up to the tolerance, plus the tester's usual wait.
     */
    private static Duration watch(final DeviceDeclaration.Timers timers, final long rtoNs, final int expiries) {
        long total = 0;
        long rto = rtoNs;
        for (int expiry = 0; expiry < expiries; expiry++) {
            total += Math.min(rto, timers.maxRto().toNanos())
                    + timers.tolerance().toNanos();
            rto = Math.min(rto * 2, timers.maxRto().toNanos());
        }
        return Duration.ofNanos(total).plus(Testbed.WAIT);
    }

    private static long clamp(final DeviceDeclaration.Timers timers, final long rtoNs) {
        return Math.max(timers.minRto().toNanos(), Math.min(timers.maxRto().toNanos(), rtoNs));
    }

    /** The WRITE packets of the case's message {@code msn}. */
    private static PacketMatcher ours(final long msn) {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS)
                .msn(msn);
    }
}

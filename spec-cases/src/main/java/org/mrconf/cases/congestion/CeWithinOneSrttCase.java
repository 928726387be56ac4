package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowRounds.DATA;
import static org.mrconf.cases.congestion.WindowRounds.FRESH_DATA;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.PathState;
import org.mrconf.peer.ReceivedPacket;

/**
 * The AIMD rule of clauses 10.1.1 and 10.1.2 over several rounds of CE reports: after a decrease, the CE reports that
 * come within one smoothed RTT of it neither decrease the window again nor grow it ("an ACK that reports a CE count
 * above 0 never increases the window, even when it falls within the SRTT after a decrease"), and the first CE report
 * more than one smoothed RTT after the decrease decreases it again, however many CE reports came in between: the
 * spacing counts from the last decrease, not from the last mark.
 *
 * <p>One path, so the packets in flight are bounded by the smaller of the path and connection windows, which follow the
 * same rule from the same ACKs (the connection's smoothed RTT is its one path's, section 10). Every ACK echoes a
 * timestamp {@link #RTT} older than the newest it acknowledges, so the DUT's smoothed RTT is at least that long and
 * several measuring rounds fit inside it. The window is first bounded from both sides ({@link WindowGrowth}); only a
 * count above the upper bound fails. Waits longer than a round happen while the tester acknowledges one packet at a
 * time (each ACK acknowledges something new, so a running retransmission timer restarts, 6.6.2), never while the case
 * races a timer it does not control; a timer that fired anyway makes a pass inconclusive, never a failure.
 */
@ExtendWith(DutExtension.class)
@DisplayName("CE reports within and after one smoothed RTT of a decrease")
class CeWithinOneSrttCase {
    /** How much older than the newest packet it acknowledges a timestamp every ACK echoes: the DUT's smoothed RTT. */
    static final Duration RTT = Duration.ofSeconds(1);

    /** Rounds of CE reports after the decrease, all within one smoothed RTT of it. */
    private static final int ROUNDS_WITHIN = 6;

    /** Attempts, each on a new connection, before the case reports that it cannot decide. */
    private static final int ATTEMPTS = 2;

    /** Rounds without CE the case gives the DUT to fill the window before the first CE report. */
    private static final int FILL_ROUNDS = 4;

    /** How far into the smoothed RTT the rounds may run and still be surely within it. */
    private static final double WITHIN = 0.8;

    /** Packets a count may show over the window's bound, as in {@link WindowGrowth}. */
    private static final int SLACK = 2;

    /** How often the tester acknowledges one more packet while it waits out a smoothed RTT. */
    private static final Duration TRICKLE = Duration.ofMillis(40);

    /** Waited beyond the smoothed RTT and the timer tolerance before the CE report that must decrease again. */
    private static final Duration MARGIN = Duration.ofMillis(50);

    private static final long WARM_UP_WR = 33_000;
    private static final long GROWTH_WR = 33_100;
    private static final long LONG_WR = 34_000;

    @Test
    @DisplayName(
            "CE reports within one smoothed RTT of a decrease, round after round, neither decrease the window again"
                    + " nor grow it")
    @Verifies("10.1.1")
    @Verifies("10.1.2")
    void ceReportsWithinOneSrttNeitherDecreaseNorGrowTheWindow(final DeviceUnderTest dut) throws Exception {
        attempts(dut, CeWithinOneSrttCase::judgeWithin);
    }

    private static void judgeWithin(final Testbed testbed) throws Exception {
        final Decreased decreased = decrease(testbed, false);
        final int paths = 1;
        long lastAckNs = 0;
        int cut = decreased.cut();
        int count = decreased.count();
        for (int round = 1; round <= ROUNDS_WITHIN; round++) {
            final int next = testbed.peer().mark();
            lastAckNs = System.nanoTime();
            acknowledgeWithCe(testbed, cut, next);
            count = WindowRounds.countInFlight(
                    testbed, next, Math.max(1, count - SLACK), decreased.oneBound(), ConnectionWindowCase.SILENT);
            assertThat(count)
                    .as(
                            "10.1.1 (and 10.1.2, one path): new PSNs in flight after round %d of CE reports that"
                                    + " followed the decrease: an ACK reporting CE never grows the window, so at"
                                    + " most the window before the decrease (at most %.1f) times %.2f, %d with %d"
                                    + " of slack",
                            round, decreased.upper(), decreased.factor(), decreased.oneBound() - SLACK, SLACK)
                    .isLessThanOrEqualTo(decreased.oneBound());
            cut = next;
        }
        final long withinNs = lastAckNs - decreased.reportedNs();
        if (withinNs > RTT.toNanos() * WITHIN) {
            throw Inconclusive.because(String.format(
                    "the last CE report went out %d ms after the one that decreased the window, too late to be"
                            + " surely within one smoothed RTT (at least %d ms) of it: the tester was too slow",
                    withinNs / 1_000_000, RTT.toMillis()));
        }
        requireNoTimerFired(testbed, decreased.start());
        if (decreased.count() + ROUNDS_WITHIN - 1 <= decreased.oneBound()) {
            throw Inconclusive.because(String.format(
                    "the DUT had %d packets in flight after the decrease, so a packet more per round of CE reports"
                            + " would still have stayed within the bound %d: it kept well below its window",
                    decreased.count(), decreased.oneBound()));
        }
        finish(testbed, decreased.start(), paths);
    }

    @Test
    @DisplayName("the first CE report more than one smoothed RTT after a decrease decreases the window again, though CE"
            + " reports kept coming in between")
    @Verifies("10.1.1")
    @Verifies("10.1.2")
    void aCeReportAfterOneSrttDecreasesTheWindowAgain(final DeviceUnderTest dut) throws Exception {
        attempts(dut, CeWithinOneSrttCase::judgeAfter);
    }

    private static void judgeAfter(final Testbed testbed) throws Exception {
        final Decreased decreased = decrease(testbed, true);
        final long tolerance =
                testbed.profile().parameters().timers().tolerance().toNanos();
        // What the DUT's smoothed RTT may have been at the decrease or since: the larger of its readings.
        long srttNs = Math.max(decreased.srttBeforeNs(), smoothedRttNs(testbed));
        if (decreased.count() <= decreased.twoBound()) {
            throw Inconclusive.because(String.format(
                    "the DUT put only %d new PSNs in flight after the first decrease, no more than a second"
                            + " decrease allows (%d), so a second decrease could not show",
                    decreased.count(), decreased.twoBound() - SLACK));
        }
        // Acknowledge one packet at a time, each ACK reporting CE, until the smoothed RTT has passed since the
        // decrease was made: every report falls within it (no decrease, no growth), and each restarts the timer.
        final List<ReceivedPacket> unacknowledged =
                new java.util.ArrayList<>(testbed.peer().recorder().matching(decreased.cut(), FRESH_DATA));
        int seen = testbed.peer().mark();
        long lastTrickleNs = System.nanoTime();
        while (System.nanoTime() - (decreased.madeByNs() + srttNs + tolerance + MARGIN.toNanos()) < 0) {
            Thread.sleep(TRICKLE.toMillis());
            final int now = testbed.peer().mark();
            unacknowledged.addAll(testbed.peer().recorder().since(seen).subList(0, now - seen).stream()
                    .filter(FRESH_DATA)
                    .toList());
            seen = now;
            if (unacknowledged.size() > 1) {
                final ReceivedPacket oldest = unacknowledged.remove(0);
                testbed.connection().onReceived(oldest);
                testbed.peer()
                        .send(testbed.connection()
                                .ackFor(0, echo(unacknowledged.get(unacknowledged.size() - 1)))
                                .ceCount(1));
                lastTrickleNs = System.nanoTime();
            }
            srttNs = Math.max(srttNs, smoothedRttNs(testbed));
        }
        // The packet the last ACK let out arrives before the decisive report, so the count after it is of new PSNs.
        TesterMessages.awaitStalled(testbed, decreased.cut(), FRESH_DATA);
        final int decisive = testbed.peer().mark();
        final long decisiveNs = System.nanoTime();
        acknowledgeWithCe(testbed, decreased.cut(), decisive);
        final int afterTwo = WindowRounds.countInFlight(
                testbed, decisive, Integer.MAX_VALUE, decreased.twoBound(), ConnectionWindowCase.SILENT);
        if (afterTwo > decreased.twoBound()) {
            final long srttNow = smoothedRttNs(testbed);
            if (decreased.madeByNs() + srttNow + tolerance - decisiveNs > 0) {
                throw Inconclusive.because(String.format(
                        "the DUT had %d packets in flight after the CE report, more than a second decrease"
                                + " allows (%d), but it now reports a smoothed RTT of %d ms, so the report may"
                                + " have come within one smoothed RTT of the first decrease",
                        afterTwo, decreased.twoBound(), srttNow / 1_000_000));
            }
        }
        assertThat(afterTwo)
                .as(
                        "10.1.1 (and 10.1.2, one path): new PSNs in flight after a CE report %d ms after the"
                                + " decrease was made, more than the DUT's smoothed RTT (at most %d ms) and the"
                                + " timer tolerance, the last of the CE reports between them %d ms before it: a"
                                + " second decrease leaves at most the window before the first (at most %.1f)"
                                + " times %.2f squared, %d with %d of slack",
                        (decisiveNs - decreased.madeByNs()) / 1_000_000,
                        srttNs / 1_000_000,
                        (decisiveNs - lastTrickleNs) / 1_000_000,
                        decreased.upper(),
                        decreased.factor(),
                        decreased.twoBound() - SLACK,
                        SLACK)
                .isLessThanOrEqualTo(decreased.twoBound());
        requireNoTimerFired(testbed, decreased.start());
        if (decisiveNs - lastTrickleNs >= RTT.toNanos() * WITHIN) {
            throw Inconclusive.because(String.format(
                    "the last CE report before the decisive one went out %d ms before it, not surely within one"
                            + " smoothed RTT: a DUT that spaced decreases from the last report would have decreased"
                            + " too",
                    (decisiveNs - lastTrickleNs) / 1_000_000));
        }
        if (afterTwo == 0) {
            throw Inconclusive.because("the DUT sent no new packet after the decisive CE report, so its window was"
                    + " not shown to bind");
        }
        finish(testbed, decreased.start(), 1);
    }

    /**
     * What the first decrease left: the bounds of the window before it, the count after it, the marks and times.
     *
     * @param start      the mark before the long WRITEs were posted
     * @param cut        the mark before the first CE report: every later fresh packet was sent after it
     * @param reportedNs when the tester sent the CE report (the decrease was made no earlier)
     * @param madeByNs   when the tester had counted the packets the decreased window let out (made no later)
     */
    private record Decreased(
            double upper,
            double factor,
            int oneBound,
            int twoBound,
            int count,
            int start,
            int cut,
            long reportedNs,
            long madeByNs,
            long srttBeforeNs) {}

    /**
     * Judges on a new one-path connection, and once more on another when the first attempt could not decide (a timer
     * the case does not control, a slow tester): each attempt is sound on its own.
     */
    private static void attempts(final DeviceUnderTest dut, final Attempts.Judgement judgement) throws Exception {
        if (!dut.profile().claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        Attempts.onNewConnections(dut, 1, ATTEMPTS, judgement::judge);
    }

    /**
     * Warms up, grows the window until a decrease (and, with {@code twice}, two) stands out from the counts' slack,
     * fills it, and makes the first decrease with a CE report.
     */
    private static Decreased decrease(final Testbed testbed, final boolean twice) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.CONGESTION);
        final DeviceDeclaration.Congestion declared =
                testbed.profile().parameters().congestion();
        if (declared.initialPathWindow() < 1 || declared.initialConnectionWindow() < 1) {
            throw Inconclusive.because("the device declares no first path or connection window (clause 12.1.6), so"
                    + " no count of packets in flight can be judged against its windows");
        }
        final double factor = testbed.profile().parameters().decreaseFactor();
        final long[] ages = {RTT.toNanos()};
        final int warmUpMark = testbed.peer().mark();
        final int warmUp =
                WindowRounds.warmUpSampling(testbed, "10.1.1", WARM_UP_WR, ages).acknowledged();
        if (twice) {
            // Read now, after the first samples: a device without the optional srttNs is told so before the rounds.
            smoothedRttNs(testbed);
        }
        // One path: the packets in flight are bounded by the smaller of the two windows, both grown alike.
        final int first = Math.min(declared.initialPathWindow(), declared.initialConnectionWindow());
        final double grown = declared.capped(ConnectionWindowCase.grownBound(first, warmUp) + 1);
        final java.util.function.Predicate<WindowGrowth.Grown> enough =
                twice ? g -> separable(g, factor) : g -> Math.floor(g.lower() * factor) >= 4;
        // The declared first window is the least the window can be (no CE yet, and ACKs only grow it) unless a timer
        // fired in the warm-up (the initial RTO may be short) and collapsed it to one packet (10.1.3): then the growth
        // learns it from what the DUT fills. Either way it is only what the case hopes to see, never judged.
        final int least = WindowRounds.retransmittedOn(testbed, warmUpMark).isEmpty() ? first : 1;
        final WindowGrowth.Grown growth = WindowGrowth.grow(testbed, grown, least, ages, GROWTH_WR, enough);
        if (!enough.test(growth)) {
            if (declared.maxConnectionWindow() > 0 && growth.upper() >= declared.maxConnectionWindow()) {
                throw NotApplicable.because(String.format(
                        "the device's configuration: its declared maximum connection window of %d packets (10.1.2)"
                                + " is too small for %s by the factor %.2f to stand out from the counts' slack",
                        declared.maxConnectionWindow(), twice ? "one and two decreases" : "a decrease", factor));
            }
            throw Inconclusive.because(String.format(
                    "in %d rounds of ACKs without CE the window grew to at least %d packets and at most %.1f, too"
                            + " little for %s by the factor %.2f to stand out from the counts' slack; a larger"
                            + " declared first window would make it conclusive",
                    growth.rounds(),
                    growth.lower(),
                    growth.upper(),
                    twice ? "one and two decreases" : "a decrease",
                    factor));
        }
        double upper = growth.upper();
        final long srttAtDecreaseNs = twice ? smoothedRttNs(testbed) : -1;

        final int start = testbed.peer().mark();
        WindowRounds.postLongWrites(
                testbed, (long) Math.ceil(upper) * (ROUNDS_WITHIN + FILL_ROUNDS + 4) + 512L, LONG_WR);
        // A device may be slow to start a long message (the first packets, then a pause): rounds without CE, each
        // acknowledged in full, until one fills the window the growth showed. Their ACKs grow the window by at most
        // 1/W per packet, which the bound follows.
        int roundStart = start;
        int full = 0;
        for (int fill = 0; fill < FILL_ROUNDS; fill++) {
            if (fill > 0) {
                final int next = testbed.peer().mark();
                WindowRounds.acknowledge(
                        testbed,
                        testbed.peer().recorder().since(roundStart).subList(0, next - roundStart).stream()
                                .filter(DATA)
                                .toList(),
                        new int[1],
                        false,
                        ages,
                        WindowRounds.everyPath(1));
                upper = declared.capped(upper + (double) full / growth.lower());
                roundStart = next;
            }
            full = WindowRounds.countInFlight(
                    testbed, roundStart, growth.lower(), (int) Math.floor(upper) + SLACK, ConnectionWindowCase.SILENT);
            assertThat(full)
                    .as(
                            "10.1.2 (one path): new PSNs in flight before any CE report: at most the window's bound"
                                    + " %.1f with %d of slack",
                            upper, SLACK)
                    .isLessThanOrEqualTo((int) Math.floor(upper) + SLACK);
            if (full >= growth.lower()) {
                break;
            }
        }
        final int oneBound = (int) Math.floor(Math.max(1, upper * factor)) + SLACK;
        final int twoBound = (int) Math.floor(Math.max(1, upper * factor * factor)) + SLACK;
        final int cut = testbed.peer().mark();
        final long reportedNs = System.nanoTime();
        acknowledgeWithCe(testbed, roundStart, cut);
        final int count = WindowRounds.countInFlight(
                testbed,
                cut,
                Math.max(1, (int) Math.floor(growth.lower() * factor) - SLACK),
                oneBound,
                ConnectionWindowCase.SILENT);
        final long madeByNs = System.nanoTime();
        assertThat(count)
                .as(
                        "10.1.1 (and 10.1.2, one path): new PSNs in flight after a CE report: at most the window before"
                                + " it (at most %.1f) times %.2f, %d with %d of slack",
                        upper, factor, oneBound - SLACK, SLACK)
                .isLessThanOrEqualTo(oneBound);
        return new Decreased(
                upper, factor, oneBound, twoBound, count, start, cut, reportedNs, madeByNs, srttAtDecreaseNs);
    }

    /**
     * Acknowledges every data packet recorded from {@code from} up to {@code to} (exactly those: a packet arriving
     * meanwhile stays in flight) with one ACK reporting one CE mark and echoing a timestamp {@link #RTT} older than
     * the newest.
     */
    private static void acknowledgeWithCe(final Testbed testbed, final int from, final int to) throws Exception {
        final List<ReceivedPacket> covered = testbed.peer().recorder().since(from).subList(0, to - from).stream()
                .filter(DATA)
                .toList();
        WindowRounds.acknowledge(
                testbed, covered, new int[] {1}, false, new long[] {RTT.toNanos()}, WindowRounds.everyPath(1));
    }

    /** The timestamp an ACK echoes for {@code newest}: {@link #RTT} older than its own. */
    private static long echo(final ReceivedPacket newest) {
        return (newest.data().orElseThrow().transmitTimestamp() - RTT.toNanos()) & 0xFFFF_FFFFL;
    }

    /**
     * The DUT's smoothed RTT of path 0 by its own account (the optional {@code srttNs} of {@code path_status}): the wire
     * gives it only a floor (an old echo), never a ceiling, and "more than one smoothed RTT after" needs a ceiling.
     */
    private static long smoothedRttNs(final Testbed testbed) throws DutControlException {
        final List<PathState> states = testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> NotApplicable.because("the agent offers no path_status (optional), and a path's"
                        + " smoothed RTT is not on the wire: the tester can bound it from below, never from above, so"
                        + " it cannot know when one smoothed RTT has passed"));
        for (final PathState state : states) {
            if (state.pathId() == 0) {
                final OptionalLong srtt = state.srttNs();
                if (srtt.isEmpty()) {
                    throw NotApplicable.because("path_status reports no srttNs (optional) for path 0, so the tester"
                            + " cannot know when one smoothed RTT has passed");
                }
                return srtt.getAsLong();
            }
        }
        throw new AssertionError("path_status does not list path 0");
    }

    /** A timer that fired collapses the window (10.1.3): a DUT missing the rule could then have passed too. */
    private static void requireNoTimerFired(final Testbed testbed, final int start) {
        final java.util.Set<Integer> fired = WindowRounds.retransmittedOn(testbed, start);
        if (!fired.isEmpty()) {
            throw Inconclusive.because("the DUT retransmitted during the rounds (a timer fired that the case does not"
                    + " control, and may have collapsed the window, 10.1.3), so a window that kept growing or missed"
                    + " a decrease could have stayed within the bounds too");
        }
    }

    /** Whether one and two decreases of a window between the growth's bounds differ by more than both counts' slack. */
    private static boolean separable(final WindowGrowth.Grown grown, final double factor) {
        return Math.floor(grown.lower() * factor) - SLACK
                > Math.floor(Math.max(1, grown.upper() * factor * factor)) + 2 * SLACK;
    }

    private static void finish(final Testbed testbed, final int start, final int paths) throws Exception {
        testbed.connection().autoAck(true);
        WindowRounds.acknowledgeAll(testbed, start, new int[paths], false);
    }
}

package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.congestion.WindowRounds.FRESH_DATA;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;

/**
 * The spacing of the connection window's decreases (clause 10.1.2): at most one per smoothed RTT of the connection,
 * which section 10 defines as the smallest smoothed RTT among its healthy paths, whichever paths the marks came on.
 *
 * <p>The case gives path 0 a short smoothed RTT ({@link #FAST_RTT}) and every other path a long one
 * ({@link #SLOW_RTT}), by the age of the timestamps its ACKs echo. CE reports make the first decrease; the tester
 * knows it was made by the time the marked WRITEs completed. Once the connection's smoothed RTT (path 0's) plus the
 * declared timer tolerance has passed, well inside the other paths' own smoothed RTT, CE reports on the slow paths
 * alone must decrease the connection window a second time. A device that spaces decreases by the marked path's
 * smoothed RTT, or by the largest, keeps the window of one decrease. Path 0's smoothed RTT is read from the optional
 * {@code srttNs} of {@code path_status} both before and after those reports, the larger taken; an agent that reports
 * no {@code srttNs} is judged all the same ({@link EchoedRtt}): the tester set every RTT sample by the age of the
 * echoes of its own ACKs, so the wire bounds path 0's smoothed RTT from above (each sample by a completion, or a {@code
 * path_status}, that shows when its ACK was taken in) and the other paths' from below (by the age of their echoes), and
 * the case waits for the upper bound instead. Where the bounds do not leave path 0 well below the others, that is
 * inconclusive, never a failure.
 *
 * <p>Only a window too large is a violation, counted as {@link ConnectionWindowCase} counts it: the new PSNs the
 * tester saw that no ACK covered. Every ACK after the warm-up reports CE, so no window grows. A decrease binds only
 * the packets sent after it, so what was still in flight once the second reports were taken in may stay: the bound
 * is the larger of the window of two decreases and the window of one less what those reports acknowledged. Path 0 is
 * not acknowledged after the first decrease, so its smoothed RTT cannot change and, once unhealthy, it cannot recover
 * (6.7.2): a count over the bound with path 0 now reported unhealthy or with another smoothed RTT is inconclusive,
 * never a failure. Timers the case does not control can make an attempt inconclusive; the case then makes a second one
 * on a new connection, each sound on its own.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Connection window decrease spacing")
class ConnectionDecreaseSpacingCase {
    /** How old an echo path 0's ACKs carry: its smoothed RTT, the connection's, starts there. */
    static final Duration FAST_RTT = Duration.ofMillis(80);

    /**
     * How old an echo the other paths' ACKs carry: far longer than the second CE report can come after the first
     * decrease, even on a loaded tester, and with the longest hold still under the 2^31 ns a timestamp can be old.
     */
    static final Duration SLOW_RTT = Duration.ofSeconds(1);

    /** Attempts, each on a new connection, before the case reports that it cannot decide. */
    private static final int ATTEMPTS = 2;

    /** Waited beyond the connection's smoothed RTT and the timer tolerance before the second CE report. */
    private static final Duration MARGIN = Duration.ofMillis(10);

    /** Extra packets a count may show over the exact window, as in {@link ConnectionWindowCase}. */
    private static final int SLACK = 2;

    /**
     * How long the tester waits, after a growth round's ACKs, for {@code path_status} to show path 0's taken in, when
     * the agent reports no srttNs: a round it does not show in time is bounded by a later one, more loosely.
     */
    private static final Duration TAKEN_IN_WAIT = Duration.ofMillis(50);

    /** Paths a case that grows the connection window first opens, where the device allows as many. */
    private static final int GROWN_PATHS = 24;

    private static final long WARM_UP_WR = 30_000;
    private static final long GROWTH_WR = 29_000;
    private static final long MARKED_WR = 31_000;
    private static final long LONG_WR = 32_000;

    @Test
    @DisplayName("a CE report more than one smoothed RTT of the connection (its fastest healthy path's) after the last"
            + " decrease decreases the connection window again, though it came on paths whose own smoothed"
            + " RTT has not passed")
    @Verifies("10.1.2")
    void decreasesAreSpacedByTheConnectionsSmoothedRtt(final DeviceUnderTest dut) throws Exception {
        final DeviceDeclaration profile = dut.profile();
        if (!profile.claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DeviceDeclaration.Congestion declared = profile.parameters().congestion();
        if (declared.initialPathWindow() < 1 || declared.initialConnectionWindow() < 1) {
            throw Inconclusive.because("the device declares no first path or connection window (clause 12.1.6), so"
                    + " no count of packets in flight can be judged against its connection window");
        }
        final int maxPaths = profile.conformance().limits().maxPaths();
        if (maxPaths < 2) {
            throw NotApplicable.because("the device offers one path per connection, so every mark comes on the"
                    + " connection's fastest path");
        }
        final Plan plan = Plan.of(declared, profile.parameters().decreaseFactor(), maxPaths);
        Attempts.onNewConnections(dut, plan.paths(), ATTEMPTS, testbed -> judge(testbed, plan));
    }

    /**
     * How many paths, the first connection window the device declares, and whether the case must grow that window
     * before it decreases it ({@link WindowGrowth}).
     */
    private record Plan(int paths, int firstWindow, double factor, boolean grow) {
        /**
         * Paths whose first windows, each halved once, allow well over the connection window halved once. Where the
         * declared windows cannot show a second decrease (one and two decreases of a small first window differ by no
         * more than the counts' slack, or the paths leave too little room), the case grows the connection window
         * first, over paths enough that their halved first windows leave room over the window of two decreases.
         */
        static Plan of(final DeviceDeclaration.Congestion declared, final double factor, final int maxPaths) {
            final int pathWindow = declared.initialPathWindow();
            final int connectionWindow = declared.initialConnectionWindow();
            final int halvedPathWindow = (int) Math.floor(Math.max(1, pathWindow * factor));
            // Enough paths that path 0, never acknowledged after the first decrease, holds well under the window of
            // two decreases if the DUT sprays evenly: with the connection window of one decrease spread over more
            // than 1/f paths, path 0's share (about W f / paths) leaves the DUT room for new packets after the second
            // decrease (W f^2), so the window is seen to bind. A connection window no larger than a path's would
            // otherwise sit half on path 0 and leave no room at all.
            final int spread = (int) Math.ceil(2 / factor) + 1;
            final int paths = (int) Math.min(
                    maxPaths, Math.max(Math.max(2, spread), (2L * connectionWindow + pathWindow - 1) / pathWindow));
            final double needed = connectionWindow * factor + connectionWindow / 8.0 + 2 * SLACK;
            // The windows of one and of two decreases must differ by more than the slack of both counts.
            final boolean separable =
                    Math.floor(connectionWindow * factor) - Math.floor(connectionWindow * factor * factor) > 2 * SLACK;
            if (separable && (long) paths * halvedPathWindow >= needed) {
                return new Plan(paths, connectionWindow, factor, false);
            }
            // The window the growth will likely stop at (its bound about ten packets above what it counts), and
            // paths enough that their halved first windows leave room over two decreases of it, so that a DUT that
            // missed the second decrease is not held back by its path windows instead.
            final double target = (3.0 * SLACK + 10 * factor * factor) / (factor - factor * factor) + 10;
            // With room for a few paths whose timers fire (10.1.3 collapses their windows to one packet).
            final long room = (long) Math.ceil((target * factor * factor + 3 * SLACK) / halvedPathWindow) + 8;
            return new Plan(
                    (int) Math.min(maxPaths, Math.max(Math.max(paths, GROWN_PATHS), room)),
                    connectionWindow,
                    factor,
                    true);
        }
    }

    private static void judge(final Testbed testbed, final Plan plan) throws Exception {
        final int paths = plan.paths();
        final long[] echoAgeNs = new long[paths];
        java.util.Arrays.fill(echoAgeNs, SLOW_RTT.toNanos());
        echoAgeNs[0] = FAST_RTT.toNanos();
        // Every ACK from here on, for an agent that reports no srttNs: what the wire bounds the smoothed RTTs by.
        final EchoedRtt echoes = EchoedRtt.watch(testbed, echoAgeNs);
        // The warm-up may leave paths unused: a small connection or path window keeps a DUT to a few paths while ACKs
        // are held (10.2.1 allows it), and the growth rounds sample the paths the DUT goes on to use. A timer that
        // fires on an unsampled path only collapses that path's window (10.1.3), which the bounds below weigh
        // (roomAfterTimers): never a failure.
        final int warmUpPackets = WindowRounds.warmUpSampling(testbed, "10.1.2", WARM_UP_WR, echoAgeNs)
                .acknowledged();
        echoes.checkpoint();
        // The window before any CE report: the declared value, grown by at most 1/W for each warm-up packet, and one
        // packet more as ConnectionWindowCase allows. Every later ACK reports CE, which never grows a window (10.1.1),
        // so one decrease leaves at most this times f, and two this times f squared.
        final DeviceDeclaration.Congestion declaredWindows =
                testbed.profile().parameters().congestion();
        double grown = declaredWindows.capped(ConnectionWindowCase.grownBound(plan.firstWindow(), warmUpPackets) + 1);
        int leastWindow = plan.firstWindow();
        if (plan.grow()) {
            // Without srttNs, each round's ACK of path 0 is bounded by when path_status shows it taken in: the growth
            // takes many rounds, far longer than path 0's echo age, and the end of the growth alone bounds it too late.
            final boolean byWire = PathSrtts.reportsNone(testbed);
            final WindowGrowth.Grown growth = WindowGrowth.grow(
                    testbed, grown, plan.firstWindow(), echoAgeNs, GROWTH_WR, g -> separable(g, plan.factor()), () -> {
                        if (byWire) {
                            echoes.awaitTakenIn(0, TAKEN_IN_WAIT);
                        }
                    });
            if (!mightSeparate(growth, plan.factor())
                    && declaredWindows.maxConnectionWindow() > 0
                    && growth.upper() >= declaredWindows.maxConnectionWindow()) {
                // Clause 10.1.2: a test that needs more in flight than a declared maximum allows is not applicable.
                throw NotApplicable.because(String.format(
                        "the device's configuration: its declared maximum connection window of %d packets (10.1.2)"
                                + " is too small for one and two decreases by the factor %.2f to differ by more than"
                                + " the counts' slack",
                        declaredWindows.maxConnectionWindow(), plan.factor()));
            }
            if (!mightSeparate(growth, plan.factor())) {
                throw Inconclusive.because(String.format(
                        "in %d rounds of ACKs without CE the connection window grew to at least %d packets and at most"
                                + " %.1f, too little for one and two decreases by the factor %.2f to differ by more"
                                + " than the counts' slack; a larger declared first connection window would make it"
                                + " conclusive",
                        growth.rounds(), growth.lower(), growth.upper(), plan.factor()));
            }
            echoes.checkpoint();
            grown = growth.upper();
            leastWindow = growth.lower();
        }
        final int oneDecreaseBound = (int) Math.floor(Math.max(1, grown * plan.factor())) + SLACK;
        final int twoDecreasesBound = (int) Math.floor(Math.max(1, grown * plan.factor() * plan.factor())) + SLACK;

        // A device may space its next decrease by the smoothed RTT as it stood at the first decrease, before or after
        // the marked ACKs' own samples; the case waits for the larger of the two. By the wire the bound after them is
        // the larger: it bounds every sample path 0 ever took.
        final java.util.Optional<PathSrtts> beforeMarks = PathSrtts.readReported(testbed);
        final FirstDecrease first = firstDecrease(testbed, echoAgeNs, echoes);
        final PathSrtts srtts = PathSrtts.read(testbed, echoes);
        final long boundedAtNs = echoes.nowNs();
        final Duration connectionSrtt = beforeMarks
                .map(PathSrtts::fast)
                .filter(fast -> fast.compareTo(srtts.fast()) > 0)
                .orElse(srtts.fast());
        final long tolerance =
                testbed.profile().parameters().timers().tolerance().toNanos();
        final long sleepNs =
                first.madeByNs() + connectionSrtt.toNanos() + tolerance + MARGIN.toNanos() - System.nanoTime();
        if (sleepNs > 0) {
            Thread.sleep(sleepNs / 1_000_000, (int) (sleepNs % 1_000_000));
        }

        final int before = testbed.peer().mark();
        WindowRounds.postLongWrites(testbed, oneDecreaseBound + twoDecreasesBound + 64L, LONG_WR);
        final int afterOne = WindowRounds.countInFlight(
                testbed,
                before,
                (int) Math.floor(leastWindow * plan.factor()) - SLACK,
                oneDecreaseBound,
                ConnectionWindowCase.SILENT);
        assertThat(afterOne)
                .as(
                        "10.1.2: new PSNs in flight after the first decrease: at most the first connection window"
                                + " times %.2f (%d, with %d of slack)",
                        plan.factor(), oneDecreaseBound - SLACK, SLACK)
                .isLessThanOrEqualTo(oneDecreaseBound);
        if (afterOne <= twoDecreasesBound) {
            throw Inconclusive.because(String.format(
                    "the DUT put only %d new PSNs in flight after the first decrease, no more than a second decrease"
                            + " allows (%d), so a second decrease could not show",
                    afterOne, twoDecreasesBound - SLACK));
        }
        final boolean[] slowPaths = WindowRounds.everyPath(paths);
        slowPaths[0] = false;
        final int[] ce = new int[paths];
        java.util.Arrays.fill(ce, 1);
        final int afterMarks = testbed.peer().mark();
        final long secondMarksSentNs = System.nanoTime();
        // Exactly what arrived before the mark is acknowledged, so what arrives later is still in flight.
        final List<ReceivedPacket> covered =
                testbed.peer().recorder().since(before).subList(0, afterMarks - before);
        WindowRounds.acknowledge(
                testbed, covered.stream().filter(WindowRounds.DATA).toList(), ce, false, echoAgeNs, slowPaths);
        final PacketMatcher pathZero = FRESH_DATA.path(0);
        final PacketMatcher otherPaths = FRESH_DATA.where("not path 0", pathZero.negate());
        // In flight: path 0's new PSNs, none acknowledged, and every other path's new PSNs since the marks.
        final java.util.function.IntSupplier inFlight =
                () -> WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(before, pathZero))
                        + WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(afterMarks, otherPaths));
        // A decrease binds the packets sent after it: what the DUT still had in flight once the reports were taken in
        // (at most the window of one decrease less the PSNs they acknowledged) may stay in flight.
        final int acknowledgedPsns =
                WindowRounds.distinctPsns(covered.stream().filter(otherPaths).toList());
        final int bound = Math.max(twoDecreasesBound, oneDecreaseBound - acknowledgedPsns);
        // The whole quiet time unless the bound is passed: a DUT that refills in bursts shows all of them.
        final int afterTwo = WindowRounds.countInFlight(inFlight, Integer.MAX_VALUE, bound, Testbed.QUIET);
        if (afterTwo > bound) {
            final String doubt = srtts.doubtNow(testbed, echoes, boundedAtNs);
            if (doubt != null) {
                throw Inconclusive.because(String.format(
                        "the DUT had %d packets in flight after the second CE reports, more than a second decrease"
                                + " allows (%d), but %s",
                        afterTwo, bound, doubt));
            }
        }
        assertThat(afterTwo)
                .as(
                        "10.1.2: packets in flight after CE reports on the slow paths (their own smoothed RTT %d ms and"
                                + " more) at least %d ms after the first decrease, longer than the connection's"
                                + " smoothed RTT (%s%.1f ms, path 0's%s) and the timer tolerance: a second decrease"
                                + " leaves at most the connection window before the first decrease (its bound) times"
                                + " %.2f squared (%d, with %d of slack), or what was in flight before the reports less"
                                + " the %d PSNs they acknowledged (at most %d), whichever is more",
                        srtts.slowPathsLeast().toMillis(),
                        (secondMarksSentNs - first.madeByNs()) / 1_000_000,
                        srtts.reported() ? "" : "at most ",
                        connectionSrtt.toNanos() / 1e6,
                        srtts.reported()
                                ? ""
                                : ", bounded by the echoes of the tester's ACKs: the agent reports no srttNs",
                        plan.factor(),
                        twoDecreasesBound - SLACK,
                        SLACK,
                        acknowledgedPsns,
                        oneDecreaseBound - acknowledgedPsns)
                .isLessThanOrEqualTo(bound);
        couldHaveShownAMissingDecrease(testbed, before, afterMarks, first, secondMarksSentNs, srtts, afterOne, bound);
        if (afterTwo == WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(before, pathZero))) {
            throw Inconclusive.because("the DUT sent no new packet within " + Testbed.QUIET + " after the second CE"
                    + " reports, so its window was not shown to bind");
        }
        testbed.connection().autoAck(true);
        WindowRounds.acknowledgeAll(testbed, before, new int[paths], false);
    }

    /**
     * Makes a count within the bound inconclusive where a DUT missing the second decrease would have stayed within it
     * too: the reports acknowledged too little for the bound to fall below what was in flight, timers collapsed so many
     * path windows (10.1.3) that the paths leave no room above the bound, or the second reports left too late to be
     * inside the slow paths' own smoothed RTT.
     */
    private static void couldHaveShownAMissingDecrease(
            final Testbed testbed,
            final int before,
            final int afterMarks,
            final FirstDecrease first,
            final long secondMarksSentNs,
            final PathSrtts srtts,
            final int afterOne,
            final int bound) {
        if (bound >= afterOne) {
            throw Inconclusive.because(String.format(
                    "the second CE reports acknowledged too few of the %d new PSNs in flight: what may stay in flight"
                            + " after them (up to %d) leaves no room to show a second decrease",
                    afterOne, bound));
        }
        final DeviceDeclaration profile = testbed.profile();
        final int halvedPathWindow = (int) Math.floor(Math.max(
                1,
                profile.parameters().congestion().initialPathWindow()
                        * profile.parameters().decreaseFactor()));
        final int room = roomAfterTimers(testbed, before, afterMarks, halvedPathWindow);
        if (room <= bound) {
            throw Inconclusive.because(String.format(
                    "the DUT retransmitted on %d paths (timers fired that the case does not control), whose collapsed"
                            + " windows (10.1.3) leave room for only %d packets, no more than the bound %d",
                    WindowRounds.retransmittedOn(testbed, before).size(), room, bound));
        }
        final long sinceFirstMarksNs = secondMarksSentNs - first.marksSentNs();
        final long tolerance = profile.parameters().timers().tolerance().toNanos();
        if (sinceFirstMarksNs >= srtts.slowPathsLeast().toNanos() - tolerance) {
            throw Inconclusive.because(String.format(
                    "the second CE reports left %d ms after the first, too late to be inside the slow paths' own"
                            + " smoothed RTT (%d ms less the timer tolerance): a DUT spacing decreases by theirs would"
                            + " have decreased too",
                    sinceFirstMarksNs / 1_000_000, srtts.slowPathsLeast().toMillis()));
        }
    }

    /**
     * The packets the path windows allow in all after the second CE reports, for a DUT that missed the second
     * connection decrease. A path whose timer fired since {@code before} counts as one packet (its window may have
     * collapsed, 10.1.3). Any other path's window is at least its first window times f, and at least the new PSNs it
     * had in flight at once between the first decrease and the second reports ({@code before} to {@code afterMarks},
     * none acknowledged): its own decrease waits a smoothed RTT of its own (10.1.1), longer than the case runs, and
     * CE reports grow no window. The paths' windows grow with the growth rounds, so the first window alone would leave
     * too little room for a grown connection window over paths of one or two packets.
     */
    private static int roomAfterTimers(
            final Testbed testbed, final int before, final int afterMarks, final int halvedPathWindow) {
        final int paths = testbed.connection().spec().paths();
        final java.util.Set<Integer> timedOut = WindowRounds.retransmittedOn(testbed, before);
        final List<ReceivedPacket> inFlightTogether =
                testbed.peer().recorder().since(before).subList(0, afterMarks - before);
        int room = 0;
        for (int path = 0; path < paths; path++) {
            if (timedOut.contains(path)) {
                room += 1;
                continue;
            }
            final int onPath = WindowRounds.newPsnsAtLeast(
                    inFlightTogether.stream().filter(FRESH_DATA.path(path)).toList());
            room += Math.max(halvedPathWindow, onPath);
        }
        return room;
    }

    /**
     * One-packet WRITEs, one per path (at most the first connection window), each path that carried one acknowledged with a CE report (echoing the path's own
     * age), and awaited until they complete: every report acknowledged something new, so the DUT had taken them all in,
     * and made its first connection decrease, by the returned time.
     */
    private static FirstDecrease firstDecrease(final Testbed testbed, final long[] echoAgeNs, final EchoedRtt echoes)
            throws Exception {
        final int paths = echoAgeNs.length;
        // No more than the first connection window, so that all of them can be in flight at once.
        final int writes =
                Math.min(paths, testbed.profile().parameters().congestion().initialConnectionWindow());
        final int mark = testbed.peer().mark();
        final java.util.Set<Long> pending = new java.util.HashSet<>();
        final long postedNs = echoes.nowNs();
        for (int i = 0; i < writes; i++) {
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, MARKED_WR + i, testbed.key(), Testbed.BASE, 64),
                            0x1000,
                            0x77);
            pending.add(MARKED_WR + i);
        }
        final List<ReceivedPacket> marked;
        try {
            marked = testbed.peer().recorder().awaitCount(mark, FRESH_DATA, writes, Testbed.WAIT);
        } catch (final AssertionError e) {
            throw Inconclusive.because(
                    "the " + writes + " marked one-packet WRITEs did not all arrive (the link may have"
                            + " lost some, or a timer the case does not control delayed them): " + e.getMessage());
        }
        echoes.posted(postedNs, marked);
        // A path that carried none gets no ACK: it would acknowledge nothing and echo no timestamp of this round.
        final boolean[] carried = new boolean[paths];
        marked.forEach(packet -> carried[packet.data().orElseThrow().header().pathId()] = true);
        final int[] ce = new int[paths];
        java.util.Arrays.fill(ce, 1);
        final long marksSentNs = System.nanoTime();
        WindowRounds.acknowledge(testbed, marked, ce, false, echoAgeNs, carried);
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (!pending.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw Inconclusive.because(String.format(
                        "%d of the %d marked one-packet WRITEs did not complete within %s although the tester"
                                + " acknowledged every packet: the link may have lost an ACK, so when the first"
                                + " decrease was made is not known",
                        pending.size(), writes, Testbed.WAIT));
            }
            for (final var completion : testbed.control().pollCompletions(64, Duration.ofMillis(10))) {
                pending.remove(completion.wrId());
            }
        }
        echoes.checkpoint();
        return new FirstDecrease(marksSentNs, System.nanoTime());
    }

    /**
     * When the CE reports of the first decrease were sent (it was made no earlier) and when the tester knew the DUT had
     * taken them all in (it was made no later).
     */
    private record FirstDecrease(long marksSentNs, long madeByNs) {}

    /**
     * Whether a window known to lie between {@code grown.lower()} and {@code grown.upper()} can show a second decrease: a
     * DUT that kept the window of one decrease (at least the lower bound times f) would then have more in flight than
     * two decreases of the upper bound allow, with the counts' slack on both sides.
     */
    private static boolean separable(final WindowGrowth.Grown grown, final double factor) {
        return Math.floor(grown.lower() * factor) - SLACK
                > Math.floor(Math.max(1, grown.upper() * factor * factor)) + 2 * SLACK;
    }

    /**
     * Whether the window, if it is as large as its upper bound allows, can show a second decrease. A gentle decrease
     * (a factor near 1, which clause 12.1.6 allows) may leave the growth's bounds too far apart to be {@link
     * #separable} within its rounds, yet the window itself is often near the upper one. The case then goes on: what the
     * DUT puts in flight after the first decrease is counted, and only a count above two decreases of the upper bound
     * lets the case judge (a smaller one is inconclusive, never a failure), so going on can decide but never wrongs a
     * device.
     */
    private static boolean mightSeparate(final WindowGrowth.Grown grown, final double factor) {
        return Math.floor(grown.upper() * factor) - SLACK
                > Math.floor(Math.max(1, grown.upper() * factor * factor)) + 2 * SLACK;
    }
}

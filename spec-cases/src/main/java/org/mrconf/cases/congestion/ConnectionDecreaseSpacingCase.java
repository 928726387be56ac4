package org.mrconf.cases.congestion;

import static org.assertj.core.api.Assertions.assertThat;
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
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.PathState;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;

/**
 * The spacing of the connection window's decreases (clause 10.1.2): at most one per smoothed RTT of the connection,
 * which section 10 defines as the smallest smoothed RTT among its healthy paths, whichever paths the marks came on.
 *
 * <p>The case gives path 0 a short smoothed RTT ({@link #FAST_RTT}) and every other path a long one
 * ({@link #SLOW_RTT}), by the age of the timestamps its ACKs echo. A CE report on every path makes the
 * first decrease; the tester knows it was made by the time the marked WRITEs completed. Once the connection's smoothed
 * RTT (path 0's, read from the optional {@code srttNs} of {@code path_status}) plus the declared timer tolerance has
 * passed, well inside the other paths' own smoothed RTT, CE reports on the slow paths alone must decrease the
 * connection window a second time. A device that spaces decreases by the marked path's smoothed RTT, or by the
 * largest, keeps the window of one decrease.
 *
 * <p>Only a window too large is a violation, and it is counted as {@link ConnectionWindowCase} counts it: new PSNs the
 * DUT has in flight while the tester withholds ACKs, a lower bound of what it has in flight. Every ACK after the
 * warm-up reports CE, so no window grows. Path 0 is not acknowledged after the first decrease, so its smoothed RTT
 * cannot change, and nothing can make it healthy again once unhealthy (6.7.2): a count over the bound with path 0
 * reported unhealthy or with another smoothed RTT afterwards is inconclusive, never a failure. Timers the case does
 * not control can make an attempt inconclusive; the case then makes a second one on a new connection, each sound on
 * its own.
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

    private static final long WARM_UP_WR = 30_000;
    private static final long MARKED_WR = 31_000;
    private static final long LONG_WR = 32_000;

    @Test
    @DisplayName("a CE report more than one smoothed RTT of the connection (its fastest healthy path's) after the last"
            + " decrease decreases the connection window again, though it came on paths whose own smoothed"
            + " RTT has not passed")
    @Verifies("10.1.2")
    void decreasesAreSpacedByTheConnectionsSmoothedRtt(final DeviceUnderTest dut) throws Exception {
        final DutProfile profile = dut.profile();
        if (!profile.claims(Profile.CONGESTION)) {
            throw NotApplicable.because("the device does not claim the congestion profile");
        }
        final DutProfile.Congestion declared = profile.parameters().congestion();
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
        if (plan == null) {
            throw Inconclusive.because(String.format(
                    "the device's first path windows (%d packets, at most %d paths) leave too little room over its"
                            + " first connection window of %d for the connection window to be what holds it back",
                    declared.initialPathWindow(), maxPaths, declared.initialConnectionWindow()));
        }
        final List<String> undecided = new java.util.ArrayList<>();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try (Testbed testbed = Testbed.open(dut, plan.paths(), 1)) {
                judge(testbed, plan);
                return;
            } catch (final Inconclusive e) {
                undecided.add("attempt " + attempt + ": " + e.getMessage());
            } catch (final DutControlException e) {
                if (!String.valueOf(e.getMessage()).contains("has failed")) {
                    throw e;
                }
                undecided.add("attempt " + attempt + ": the DUT's connection timed out while the case withheld"
                        + " ACKs: " + e.getMessage());
            }
        }
        throw Inconclusive.because(String.join("; ", undecided));
    }

    /** How many paths, and the windows the device declares. */
    private record Plan(int paths, int firstWindow, double factor) {
        /** Paths whose first windows, each halved once, allow well over the connection window halved once. */
        static Plan of(final DutProfile.Congestion declared, final double factor, final int maxPaths) {
            final int pathWindow = declared.initialPathWindow();
            final int connectionWindow = declared.initialConnectionWindow();
            final int halvedPathWindow = (int) Math.floor(Math.max(1, pathWindow * factor));
            final int paths =
                    (int) Math.min(maxPaths, Math.max(2, (2L * connectionWindow + pathWindow - 1) / pathWindow));
            final double needed = connectionWindow * factor + connectionWindow / 8.0 + 2 * SLACK;
            return (long) paths * halvedPathWindow < needed ? null : new Plan(paths, connectionWindow, factor);
        }
    }

    private static void judge(final Testbed testbed, final Plan plan) throws Exception {
        final int paths = plan.paths();
        final long[] echoAgeNs = new long[paths];
        java.util.Arrays.fill(echoAgeNs, SLOW_RTT.toNanos());
        echoAgeNs[0] = FAST_RTT.toNanos();
        final int warmUpPackets = WindowRounds.warmUp(testbed, "10.1.2", WARM_UP_WR, echoAgeNs);
        // The window before any CE report: the declared value, grown by at most 1/W for each warm-up packet. Every
        // later ACK reports CE, which never grows a window (10.1.1), so one decrease leaves at most this times f.
        final double grown = plan.firstWindow() + (double) warmUpPackets / plan.firstWindow();
        final int oneDecreaseBound = (int) Math.floor(Math.max(1, grown * plan.factor())) + SLACK;
        final int twoDecreasesBound = (int) Math.floor(Math.max(1, grown * plan.factor() * plan.factor())) + SLACK;

        final FirstDecrease first = firstDecrease(testbed, echoAgeNs);
        final long firstDecreaseMadeByNs = first.madeByNs();
        final Srtts srtts = srtts(testbed);
        final Duration connectionSrtt = srtts.connection();
        final long tolerance =
                testbed.profile().parameters().timers().tolerance().toNanos();
        final long waitNs = connectionSrtt.toNanos() + tolerance + MARGIN.toNanos();
        final long sleepNs = firstDecreaseMadeByNs + waitNs - System.nanoTime();
        if (sleepNs > 0) {
            Thread.sleep(sleepNs / 1_000_000, (int) (sleepNs % 1_000_000));
        }

        final int before = testbed.peer().mark();
        postLongWrites(testbed, oneDecreaseBound + twoDecreasesBound + 64L);
        final int afterOne = WindowRounds.countInFlight(
                testbed,
                before,
                (int) Math.floor(plan.firstWindow() * plan.factor()) - SLACK,
                oneDecreaseBound,
                ConnectionWindowCase.SILENT);
        assertThat(afterOne)
                .as(
                        "10.1.2: new PSNs in flight after one CE report on every path: at most the first connection"
                                + " window times %.2f (%d, with %d of slack)",
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
        final long marksSentNs = System.nanoTime();
        WindowRounds.acknowledge(testbed, before, ce, false, echoAgeNs, slowPaths);
        final long elapsedMs = (marksSentNs - firstDecreaseMadeByNs) / 1_000_000;
        // In flight: path 0's new PSNs, none acknowledged, and every path's new PSNs since the marks.
        final PacketMatcher pathZero = FRESH_DATA.path(0);
        final PacketMatcher otherPaths = FRESH_DATA.where("not path 0", pathZero.negate());
        final java.util.function.IntSupplier inFlight =
                () -> WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(before, pathZero))
                        + WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(afterMarks, otherPaths));
        final int afterTwo =
                WindowRounds.countInFlight(inFlight, twoDecreasesBound - 2 * SLACK, twoDecreasesBound, Testbed.QUIET);
        if (afterTwo > twoDecreasesBound) {
            final String doubt = doubtAboutTheSecondDecrease(testbed, connectionSrtt);
            if (doubt != null) {
                throw Inconclusive.because(String.format(
                        "the DUT had %d packets in flight after the second CE report, more than a second decrease"
                                + " allows (%d), but %s",
                        afterTwo, twoDecreasesBound - SLACK, doubt));
            }
        }
        assertThat(afterTwo)
                .as(
                        "10.1.2: packets in flight after CE reports on the slow paths (their own smoothed RTT %d ms and"
                                + " more) at least %d ms after the first decrease, longer than the connection's smoothed RTT"
                                + " (%.1f ms, path 0's) and the timer tolerance: a second decrease leaves at most the"
                                + " first connection window times %.2f squared (%d, with %d of slack)",
                        srtts.slowest().toMillis(),
                        elapsedMs,
                        connectionSrtt.toNanos() / 1e6,
                        plan.factor(),
                        twoDecreasesBound - SLACK,
                        SLACK)
                .isLessThanOrEqualTo(twoDecreasesBound);
        final long sinceMarksNs = marksSentNs - first.marksSentNs();
        if (sinceMarksNs >= srtts.slowest().toNanos() - tolerance) {
            // A DUT that spaced its decreases by the marked paths' smoothed RTT would have decreased too.
            throw Inconclusive.because(String.format(
                    "the second CE report left %d ms after the first, too late to be inside the marked paths' own"
                            + " smoothed RTT (%d ms less the timer tolerance), so the attempt could not tell spacing"
                            + " by the connection's smoothed RTT from spacing by theirs",
                    sinceMarksNs / 1_000_000, srtts.slowest().toMillis()));
        }
        if (afterTwo == WindowRounds.newPsnsAtLeast(testbed.peer().recorder().matching(before, pathZero))) {
            throw Inconclusive.because("the DUT sent no new packet within " + Testbed.QUIET + " after the second CE"
                    + " report, so its window was not shown to bind");
        }
        testbed.connection().autoAck(true);
        WindowRounds.acknowledgeAll(testbed, before, new int[paths], false);
    }

    /**
     * One-packet WRITEs, one per path, all acknowledged with a CE report on each path (echoing the path's own age),
     * and awaited until they complete: the DUT has then taken in every report, so its first connection decrease was
     * made by the returned time.
     */
    private static FirstDecrease firstDecrease(final Testbed testbed, final long[] echoAgeNs) throws Exception {
        final int paths = echoAgeNs.length;
        final int mark = testbed.peer().mark();
        final java.util.Set<Long> pending = new java.util.HashSet<>();
        for (int i = 0; i < paths; i++) {
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, MARKED_WR + i, testbed.key(), Testbed.BASE, 64),
                            0x1000,
                            0x77);
            pending.add(MARKED_WR + i);
        }
        testbed.peer().recorder().awaitCount(mark, FRESH_DATA, paths, Testbed.WAIT);
        final int[] ce = new int[paths];
        java.util.Arrays.fill(ce, 1);
        final long marksSentNs = System.nanoTime();
        WindowRounds.acknowledge(testbed, mark, ce, false, echoAgeNs, WindowRounds.everyPath(paths));
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (!pending.isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                throw Inconclusive.because(String.format(
                        "%d of the %d marked one-packet WRITEs did not complete within %s although the tester"
                                + " acknowledged every packet: the link may have lost an ACK, so when the first"
                                + " decrease was made is not known",
                        pending.size(), paths, Testbed.WAIT));
            }
            for (final var completion : testbed.control().pollCompletions(64, Duration.ofMillis(10))) {
                pending.remove(completion.wrId());
            }
        }
        return new FirstDecrease(marksSentNs, System.nanoTime());
    }

    /**
     * When the CE reports of the first decrease were sent (it was made no earlier) and when the tester knew the DUT had
     * taken them all in (it was made no later).
     */
    private record FirstDecrease(long marksSentNs, long madeByNs) {}

    /** The connection's smoothed RTT (path 0's) and the smallest of the other paths'. */
    private record Srtts(Duration connection, Duration slowest) {}

    /**
     * The smoothed RTTs by the DUT's own account ({@code srttNs}): the connection's is path 0's, which must be the
     * smallest among the healthy paths and well below the others', or the case cannot show what it is for.
     */
    private static Srtts srtts(final Testbed testbed) throws DutControlException {
        final List<PathState> states = testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> NotApplicable.because("the agent offers no path_status (optional), and a path's"
                        + " smoothed RTT is not on the wire: the tester can bound it from below, never from above"));
        long fast = -1;
        long slowest = Long.MAX_VALUE;
        for (final PathState state : states) {
            final OptionalLong srtt = state.srttNs();
            if (srtt.isEmpty()) {
                throw NotApplicable.because("path_status reports no srttNs (optional) for path " + state.pathId()
                        + ", which carried acknowledged packets: the connection's smoothed RTT cannot be known");
            }
            if (!state.healthy()) {
                throw Inconclusive.because("path " + state.pathId() + " is reported unhealthy before the second CE"
                        + " report, so the connection's smoothed RTT is not the one the case set up");
            }
            if (state.pathId() == 0) {
                fast = srtt.getAsLong();
            } else {
                slowest = Math.min(slowest, srtt.getAsLong());
            }
        }
        if (fast < 0 || fast >= slowest / 2) {
            throw Inconclusive.because(String.format(
                    "path 0's smoothed RTT (%d ns) is not well below the other paths' (at least %d ns), so CE reports"
                            + " on those paths after the connection's smoothed RTT cannot be told from reports after"
                            + " their own",
                    fast, slowest));
        }
        return new Srtts(Duration.ofNanos(fast), Duration.ofNanos(slowest));
    }

    /**
     * Why the connection's smoothed RTT may not have been path 0's when the second CE report arrived, or null: the DUT
     * now reports path 0 unhealthy or with another smoothed RTT. A timer expiry alone changes neither (6.6.3, 6.7.1),
     * and with no ACK on path 0 since the first decrease an unhealthy path 0 cannot have recovered (6.7.2), so a path 0
     * reported healthy now was healthy then.
     */
    private static String doubtAboutTheSecondDecrease(final Testbed testbed, final Duration connectionSrtt)
            throws DutControlException {
        final PathState fast = testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> new AssertionError("path_status went away during the case"))
                .get(0);
        if (!fast.healthy()) {
            return "the DUT reports path 0 unhealthy";
        }
        if (fast.srttNs().orElse(-1) != connectionSrtt.toNanos()) {
            return "the DUT now reports path 0's smoothed RTT as " + fast.srttNs() + " ns, not "
                    + connectionSrtt.toNanos();
        }
        return null;
    }

    private static void postLongWrites(final Testbed testbed, final long packets) throws Exception {
        final int payload = testbed.connection().maxPayload(org.mrconf.wire.Opcode.WRITE);
        final int perWrite = (Testbed.REGION + payload - 1) / payload;
        final int writes = (int) ((packets + perWrite - 1) / perWrite);
        for (int i = 0; i < writes; i++) {
            testbed.control()
                    .postWrite(
                            new WorkRequest(
                                    Testbed.DUT_CONNECTION,
                                    0,
                                    LONG_WR + i,
                                    testbed.key(),
                                    Testbed.BASE,
                                    Testbed.REGION),
                            0x1000,
                            0x77);
        }
    }
}

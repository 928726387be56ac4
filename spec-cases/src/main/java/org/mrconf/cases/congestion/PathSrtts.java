package org.mrconf.cases.congestion;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.PathState;
import org.mrconf.peer.StallAllowance;

/**
 * The smoothed RTTs of a connection whose path 0 the tester made fast and every other path slow. By the DUT's own
 * account where its agent gives it (the optional {@code srttNs} of {@code path_status}); otherwise by the bounds the
 * tester's own ACKs set ({@link EchoedRtt}): path 0's at most the largest bound of its samples, the other paths' at
 * least the age of the echoes their ACKs carried. Either way the case waits for {@link #fast} and judges only inside
 * {@link #slowPathsLeast}.
 *
 * @param fast           path 0's, which is the connection's (section 10) while every path is healthy; by the wire, an
 *                       upper bound of it
 * @param slowPathsLeast the smallest of the other paths'; by the wire, a lower bound of it
 * @param reported       whether the agent reported them ({@code srttNs}) rather than the wire bounding them
 */
record PathSrtts(Duration fast, Duration slowPathsLeast, boolean reported) {

    /**
     * Reads them, every path healthy and path 0 with a sample: the reported ones when the agent gives {@code srttNs},
     * the wire's bounds from {@code echoes} when it gives it for no path.
     *
     * @throws NotApplicable when the agent offers no {@code path_status}
     * @throws Inconclusive  when a path is unhealthy or path 0 is not well below the others (reported, or bounded so by
     *     the wire), so the connection's smoothed RTT is not known to be the one the case set up
     */
    static PathSrtts read(final Testbed testbed, final EchoedRtt echoes) throws DutControlException {
        final List<PathState> states = states(testbed);
        return states.stream().allMatch(state -> state.srttNs().isEmpty())
                ? bounded(states, testbed, echoes)
                : reported(states);
    }

    /**
     * The reported ones, as {@link #read}, or empty when the agent reports {@code srttNs} for no path: before the wire
     * can bound them (the tester has posted no WRITE of its own yet to relate the clocks by).
     */
    static java.util.Optional<PathSrtts> readReported(final Testbed testbed) throws DutControlException {
        final List<PathState> states = states(testbed);
        return states.stream().allMatch(state -> state.srttNs().isEmpty())
                ? java.util.Optional.empty()
                : java.util.Optional.of(reported(states));
    }

    /**
     * Whether the agent offers {@code path_status} but reports {@code srttNs} for no path, so the case must bound the
     * smoothed RTTs by the wire: asked once paths have samples.
     */
    static boolean reportsNone(final Testbed testbed) throws DutControlException {
        return testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .map(states -> states.stream().allMatch(state -> state.srttNs().isEmpty()))
                .orElse(false);
    }

    private static List<PathState> states(final Testbed testbed) throws DutControlException {
        return testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> NotApplicable.because("the agent offers no path_status (optional), so the tester"
                        + " cannot tell whether path 0, whose smoothed RTT is the connection's, stayed healthy"));
    }

    private static PathSrtts reported(final List<PathState> states) {
        long fast = -1;
        long slowest = Long.MAX_VALUE;
        for (final PathState state : states) {
            final OptionalLong srtt = state.srttNs();
            if (srtt.isEmpty()) {
                // A path without an RTT sample yet (its acknowledged packets were all retransmissions, 6.6.1) has no
                // smoothed RTT, and section 10 takes the connection's from the paths that have one.
                continue;
            }
            unhealthy(state);
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
        return new PathSrtts(Duration.ofNanos(fast), Duration.ofNanos(slowest), true);
    }

    /**
     * The wire's bounds, for an agent that reports no {@code srttNs}: path 0's largest possible smoothed RTT and the
     * other paths' smallest, which must differ by at least a factor of two, as the reported ones must. A host stall
     * lengthens the upper bound (the tester saw completions late); when it alone may explain the miss the reason says
     * so ({@link StallAllowance}).
     */
    private static PathSrtts bounded(final List<PathState> states, final Testbed testbed, final EchoedRtt echoes) {
        // Only the paths the tester acknowledged have a sample, and so a smoothed RTT that counts (section 10).
        states.stream()
                .filter(state -> echoes.lowestNs(state.pathId()) != Long.MAX_VALUE)
                .forEach(PathSrtts::unhealthy);
        final EchoedRtt.Bounds fast = echoes.path(0);
        if (!fast.bounded()) {
            throw Inconclusive.because("the agent reports no srttNs (optional) and the wire does not bound path 0's"
                    + " smoothed RTT from above: " + fast.why() + "; an agent reporting srttNs would make it"
                    + " conclusive");
        }
        long slowest = Long.MAX_VALUE;
        for (int path = 1; path < states.size(); path++) {
            slowest = Math.min(slowest, echoes.lowestNs(path));
        }
        if (fast.highestNs() >= slowest / 2) {
            final String what = String.format(
                    "path 0's smoothed RTT is at most %.1f ms by the echoes of the tester's ACKs and when it saw them"
                            + " taken in (the agent reports no srttNs), not well below the other paths' (at least %.1f"
                            + " ms)",
                    fast.highestNs() / 1e6, slowest / 1e6);
            final long sinceNs = echoes.startedNs();
            throw Inconclusive.because(StallAllowance.reason(
                            what,
                            fast.highestNs() - slowest / 2,
                            testbed.stalls()
                                    .longestStallNs(sinceNs, testbed.stalls().nowNs()))
                    .orElse(what + ", so CE reports on those paths after the connection's smoothed RTT cannot be told"
                            + " from reports after their own; an agent reporting srttNs would make it conclusive"));
        }
        return new PathSrtts(Duration.ofNanos(fast.highestNs()), Duration.ofNanos(slowest), false);
    }

    private static void unhealthy(final PathState state) {
        if (!state.healthy()) {
            throw Inconclusive.because("path " + state.pathId() + " is reported unhealthy, so the connection's"
                    + " smoothed RTT is not the one the case set up");
        }
    }

    /**
     * Why the connection's smoothed RTT may no longer have been path 0's {@link #fast} (or, by the wire, below it) when
     * a later CE report arrived, or null: the DUT now reports path 0 unhealthy or with another smoothed RTT, or the
     * tester acknowledged on path 0 since {@code sinceNs}. Only ACKs on a path change its smoothed RTT (6.6.1) and make
     * an unhealthy path healthy again (6.7.2), so with none sent on path 0 meanwhile, a path 0 reported healthy with
     * the same smoothed RTT now (or, by the wire, whose samples were all bounded) was so throughout.
     */
    String doubtNow(final Testbed testbed, final EchoedRtt echoes, final long sinceNs) throws DutControlException {
        final PathState pathZero = testbed
                .control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> new AssertionError("path_status went away during the case"))
                .stream()
                .filter(state -> state.pathId() == 0)
                .findFirst()
                .orElseThrow(() -> new AssertionError("path_status no longer lists path 0"));
        if (!pathZero.healthy()) {
            return "the DUT reports path 0 unhealthy";
        }
        if (echoes.ackedSince(0, sinceNs)) {
            return "the tester acknowledged on path 0 after it bounded path 0's smoothed RTT";
        }
        if (reported && pathZero.srttNs().orElse(-1) != fast.toNanos()) {
            return "the DUT now reports path 0's smoothed RTT as " + pathZero.srttNs() + " ns, not " + fast.toNanos();
        }
        return null;
    }
}

package org.mrconf.cases.congestion;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.PathState;

/**
 * The smoothed RTTs of a connection whose path 0 the tester made fast and every other path slow, by the DUT's own
 * account: the optional {@code srttNs} of {@code path_status}, which the tester needs because the wire only ever
 * gives a path's smoothed RTT a floor (an old echo), never a ceiling (the DUT's own delays are invisible).
 *
 * @param fast          path 0's, which is the connection's (section 10) while every path is healthy
 * @param slowPathsLeast the smallest of the other paths'
 */
record PathSrtts(Duration fast, Duration slowPathsLeast) {

    /**
     * Reads them, every path healthy and with a sample.
     *
     * @throws NotApplicable when the agent offers no {@code path_status}, or no {@code srttNs} for any path
     * @throws Inconclusive  when a path is unhealthy or path 0 is not well below the others, so the connection's smoothed
     *     RTT is not the one the case set up
     */
    static PathSrtts read(final Testbed testbed) throws DutControlException {
        final List<PathState> states = testbed.control()
                .pathStatus(Testbed.DUT_CONNECTION)
                .orElseThrow(() -> NotApplicable.because("the agent offers no path_status (optional), and a path's"
                        + " smoothed RTT is not on the wire: the tester can bound it from below, never from above"));
        if (states.stream().allMatch(state -> state.srttNs().isEmpty())) {
            throw NotApplicable.because("path_status reports no srttNs (optional) for any path, though the tester"
                    + " acknowledged packets on them: the connection's smoothed RTT cannot be known");
        }
        long fast = -1;
        long slowest = Long.MAX_VALUE;
        for (final PathState state : states) {
            final OptionalLong srtt = state.srttNs();
            if (srtt.isEmpty()) {
                // A path without an RTT sample yet (its acknowledged packets were all retransmissions, 6.6.1) has no
                // smoothed RTT, and section 10 takes the connection's from the paths that have one.
                continue;
            }
            if (!state.healthy()) {
                throw Inconclusive.because("path " + state.pathId() + " is reported unhealthy, so the connection's"
                        + " smoothed RTT is not the one the case set up");
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
        return new PathSrtts(Duration.ofNanos(fast), Duration.ofNanos(slowest));
    }

    /**
     * Why the connection's smoothed RTT may no longer have been path 0's {@link #fast} when a later CE report arrived,
     * or null: the DUT now reports path 0 unhealthy or with another smoothed RTT. Only ACKs on a path change its smoothed
     * RTT (6.6.1) and make an unhealthy path healthy again (6.7.2), so with none sent on path 0 meanwhile, a path 0
     * reported healthy with the same smoothed RTT now was so throughout.
     */
    String doubtNow(final Testbed testbed) throws DutControlException {
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
        if (pathZero.srttNs().orElse(-1) != fast.toNanos()) {
            return "the DUT now reports path 0's smoothed RTT as " + pathZero.srttNs() + " ns, not " + fast.toNanos();
        }
        return null;
    }
}

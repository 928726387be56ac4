package org.mrconf.cases.congestion;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * Where a new packet may go when the paths with the most free window are tied (clause 10.2.2), under the two readings
 * of "free window" a device may take. Every path's whole-packet window, floor(W), is the same, so the paths with the
 * fewest packets in flight tie, and the tie goes to the first of them after the path the previous new packet took.
 * Counting the fractions of W, which grows by 1/W for each packet acknowledged (clause 10.1.1), only the most
 * acknowledged of those paths tie.
 *
 * @param tied       the paths with the fewest packets in flight, ascending
 * @param byFloor    the pick when free window is floor(W) less the packets in flight
 * @param byFraction the pick when free window is W less the packets in flight
 */
record TieBreak(List<Integer> tied, int byFloor, int byFraction) {

    /**
     * @param inFlight     packets in flight per path
     * @param acknowledged packets acknowledged so far per path
     * @param previous     the path the previous new packet took
     */
    static TieBreak of(final int[] inFlight, final int[] acknowledged, final int previous) {
        final int paths = inFlight.length;
        final int fewest = Arrays.stream(inFlight).min().orElseThrow();
        final IntPredicate tied = p -> inFlight[p] == fewest;
        final int mostAcknowledged = IntStream.range(0, paths)
                .filter(tied)
                .map(p -> acknowledged[p])
                .max()
                .orElseThrow();
        return new TieBreak(
                IntStream.range(0, paths).filter(tied).boxed().toList(),
                firstAfter(previous, paths, tied),
                firstAfter(previous, paths, p -> tied.test(p) && acknowledged[p] == mostAcknowledged));
    }

    /** The first path after {@code previous} in ascending order, wrapping to 0, that is {@code among}. */
    private static int firstAfter(final int previous, final int paths, final IntPredicate among) {
        for (int step = 1; step <= paths; step++) {
            final int candidate = (previous + step) % paths;
            if (among.test(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no path qualifies");
    }
}

package org.mrconf.replay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.mrconf.dut.DeviceDeclaration;
import org.opentest4j.TestAbortedException;

/**
 * The congestion windows of clauses 10.1.1 (per path) and 10.1.2 (per connection), judged by a tester that holds its
 * ACKs back and counts the DUT's packets in flight ({@link Sidecar.Check#pathWindow()}, {@link
 * Sidecar.Check#connectionWindow()}).
 *
 * <p>The tester knows each window from above: it starts at the declared initial value (clause 12.1.6); each packet the
 * tester acknowledges without a CE count grows it by 1/W, at most 1/W0 while it has not decreased; an ACK with a CE
 * count never grows it and decreases it at most to W times the declared factor (at least 1). The tester sends its CE
 * reports in one go, far within the smoothed RTT a vector stretches with {@code echoAge}, so one decrease is the most a
 * conforming DUT makes; a second, or a timer's collapse (clause 10.1.3), only lowers the window, which no count above
 * the bound can then come from. So a count over the bound is a violation whatever the timing. A count that never
 * reaches the window's least value shows nothing (a timer collapsed it, the link lost packets, or another window
 * bound first), and the vector is INCONCLUSIVE.
 *
 * <p>Once a window is known to have decreased, ACKs without a CE count would grow it again by up to 1/W each with W
 * below W0: this class does not follow that, and a later window check is INCONCLUSIVE.
 */
final class CongestionWindowCheck {
    /**
     * Packets a count may show over the bound: one for a window that is not whole, one for the "about" of the additive
     * increase (clause 10.1.1). {@code ConnectionWindowCase} allows the same.
     */
    static final int SLACK = 2;

    /** A path's send window (clause 6.1.3): no congestion window can put more in flight on one path. */
    private static final int SEND_WINDOW = 256;

    /**
     * Once a count has reached the window, how long the tester goes on looking for packets beyond it. A DUT that
     * ignores a window sends the excess in the same burst; a conforming one cannot fail by a longer or shorter look.
     */
    private static final Duration BEYOND = Duration.ofMillis(20);

    private static final long POLL_MS = 2;

    private final Optional<DeviceDeclaration.Congestion> declared;
    private final int paths;
    /** Per path, how many packets the tester acknowledged without a CE count while the path had not decreased. */
    private final long[] grownBy;

    private final boolean[] decreased;
    private final boolean[] regrown;
    private boolean connectionDecreased;
    private boolean connectionRegrown;

    CongestionWindowCheck(final Optional<DeviceDeclaration.Congestion> declared, final int paths) {
        this.declared = declared;
        this.paths = paths;
        this.grownBy = new long[paths];
        this.decreased = new boolean[paths];
        this.regrown = new boolean[paths];
    }

    /**
     * Notes one ACK the tester sends: on {@code path}, acknowledging {@code acknowledged} packets of it in all so far
     * (cumulatively or in its SACK bitmap), with {@code ceCount}.
     */
    void acknowledged(final int path, final long acknowledged, final int ceCount) {
        if (path >= paths) {
            return;
        }
        if (ceCount > 0) {
            decreased[path] = true;
            connectionDecreased = true;
            return;
        }
        if (acknowledged > grownBy[path]) {
            // Growth after a decrease is by 1/W with W below W0: not followed (see the class comment).
            regrown[path] |= decreased[path];
            connectionRegrown |= connectionDecreased;
            grownBy[path] = acknowledged;
        }
    }

    /**
     * Counts the packets in flight ({@code outstanding}: distinct PSNs per path from the cumulative PSN the tester last
     * acknowledged) until the counts reach the windows and {@link #BEYOND} more has passed, or exceed them, or stop
     * changing for {@code quiet} (at most {@link VectorReplay#LIMIT}); then judges them.
     */
    void judge(
            final Sidecar.Check check,
            final Supplier<Map<Integer, Long>> outstanding,
            final long rateHintMbps,
            final Duration quiet,
            final String at,
            final List<String> failures)
            throws InterruptedException {
        final DeviceDeclaration.Congestion congestion = knownWindows(check, rateHintMbps, at);
        final long deadlineNs = System.nanoTime() + VectorReplay.LIMIT.toNanos();
        Map<Integer, Long> counts = outstanding.get();
        long stableSinceNs = System.nanoTime();
        while (exceeded(check, congestion, counts).isEmpty() && System.nanoTime() - deadlineNs < 0) {
            if (reached(check, congestion, counts)) {
                Thread.sleep(BEYOND.toMillis());
                counts = outstanding.get();
                break;
            }
            if (System.nanoTime() - stableSinceNs >= quiet.toNanos()) {
                break;
            }
            Thread.sleep(POLL_MS);
            final Map<Integer, Long> next = outstanding.get();
            if (!next.equals(counts)) {
                counts = next;
                stableSinceNs = System.nanoTime();
            }
        }
        final List<String> exceeded = exceeded(check, congestion, counts);
        if (!exceeded.isEmpty()) {
            exceeded.forEach(e -> failures.add(at + ": " + e));
            return;
        }
        if (!reached(check, congestion, counts)
                && check.pathWindow()
                && !check.connectionWindow()
                && congestion.initialConnectionWindow() < pathLeast(congestion, 0)) {
            // The device's legal configuration: a first connection window below the path window, which may still be
            // what binds after it grew (its real growth is not known from below), not the tester, kept the path's edge
            // out of reach.
            throw VectorNotApplicable.because(String.format(
                    "%s: the device's configuration: the DUT had %s in flight by path, short of its path window (at"
                            + " least %d), and its first connection window (%d) is below the path window, so the"
                            + " connection window may be what bound; a declared initialConnectionWindow at least the"
                            + " path windows would exercise it",
                    at, counts, pathLeast(congestion, 0), congestion.initialConnectionWindow()));
        }
        if (!reached(check, congestion, counts)) {
            throw new TestAbortedException(String.format(
                    "%s: the DUT had %s in flight by path, short of its %s (at least %s): a timer may have collapsed"
                            + " a window (clause 10.1.3), the link lost packets or another window bound first, so the"
                            + " window's edge was not reached",
                    at,
                    counts,
                    check.pathWindow() ? "path window" : "connection window",
                    check.pathWindow() ? pathLeast(congestion, 0) : connectionLeast(congestion)));
        }
    }

    /** The declarations the bounds need; INCONCLUSIVE when a window here is not known. */
    private DeviceDeclaration.Congestion knownWindows(
            final Sidecar.Check check, final long rateHintMbps, final String at) {
        final DeviceDeclaration.Congestion congestion = declared.orElse(null);
        if (congestion == null || congestion.initialPathWindow() < 1 || congestion.initialConnectionWindow() < 1) {
            throw new TestAbortedException(at + ": the device declares no initial path or connection window (clause"
                    + " 12.1.6), so no count of packets in flight can be judged against its windows");
        }
        if (rateHintMbps > 0) {
            throw new TestAbortedException(at + ": the tester's ACKs carry a rate hint, which may hold the windows up"
                    + " (clause 10.1.5), so they are not known from the CE counts alone");
        }
        boolean regrew = check.connectionWindow() && connectionRegrown;
        for (int path = 0; path < paths; path++) {
            regrew |= check.pathWindow() && regrown[path];
        }
        if (regrew) {
            throw new TestAbortedException(at + ": the tester acknowledged packets without a CE count after a"
                    + " decrease, which grows a window by an amount this check does not follow");
        }
        if (check.pathWindow() && !check.connectionWindow()) {
            long least = Long.MAX_VALUE;
            for (int path = 0; path < paths; path++) {
                least = Math.min(least, pathLeast(congestion, path));
            }
            if (Math.floor(connectionMost(congestion)) < least) {
                // The device's legal configuration (a first connection window below its path windows) keeps every
                // path short of its window's edge: not applicable, so the clause reads partial, never inconclusive.
                throw VectorNotApplicable.because(String.format(
                        "%s: the device's configuration: its connection window (at most %d packets here) is smaller"
                                + " than any path's window (at least %d), so no path can reach its window's edge; a"
                                + " declared initialConnectionWindow at least the path windows would exercise it",
                        at, (long) Math.floor(connectionMost(congestion)), least));
            }
        }
        if (check.connectionWindow()) {
            long room = 0;
            for (int path = 0; path < paths; path++) {
                room += pathLeast(congestion, path);
            }
            if (room <= Math.floor(connectionMost(congestion)) + SLACK) {
                // The device's legal configuration (small declared path windows), not the tester, leaves the clause
                // nothing to show here: not applicable, so the clause reads partial, never inconclusive.
                throw VectorNotApplicable.because(String.format(
                        "%s: the device's configuration: the %d paths' declared windows allow at least %d packets in"
                                + " flight, not more than the connection window's %d (with %d of slack), so the"
                                + " connection window cannot be shown to bind; larger declared initial path windows"
                                + " would exercise it",
                        at, paths, room, (long) Math.floor(connectionMost(congestion)), SLACK));
            }
        }
        return congestion;
    }

    private List<String> exceeded(
            final Sidecar.Check check, final DeviceDeclaration.Congestion congestion, final Map<Integer, Long> counts) {
        final List<String> wrong = new ArrayList<>();
        if (check.pathWindow()) {
            for (final Map.Entry<Integer, Long> path : counts.entrySet()) {
                final int p = path.getKey();
                if (p >= paths) {
                    continue; // a path the connection does not have: checkSent reports it
                }
                final long allowed = (long) Math.floor(pathMost(congestion, p)) + SLACK;
                if (path.getValue() > allowed) {
                    wrong.add(String.format(
                            "expected at most %d packets in flight on path %d, the DUT had %d; 10.1.1: a new packet"
                                    + " goes on a path only while its packets in flight are below floor(W), here W is"
                                    + " at most %.2f (initial window %d, %d packets acknowledged without CE%s), plus"
                                    + " %d of slack",
                            allowed,
                            p,
                            path.getValue(),
                            pathMost(congestion, p),
                            congestion.initialPathWindow(),
                            grownBy[p],
                            decreased[p] ? ", then one decrease by " + congestion.decreaseFactor() : "",
                            SLACK));
                }
            }
        }
        if (check.connectionWindow()) {
            final long sum = sum(counts);
            final long allowed = (long) Math.floor(connectionMost(congestion)) + SLACK;
            if (sum > allowed) {
                wrong.add(String.format(
                        "expected at most %d packets in flight on the connection, the DUT had %d (%s by path); 10.1.2:"
                                + " the connection never has more packets in flight than its window, whatever its"
                                + " path windows allow, here at most %.2f (initial window %d, %d packets acknowledged"
                                + " without CE%s), plus %d of slack",
                        allowed,
                        sum,
                        counts,
                        connectionMost(congestion),
                        congestion.initialConnectionWindow(),
                        sum(grownBy),
                        connectionDecreased ? ", then one decrease by " + congestion.decreaseFactor() : "",
                        SLACK));
            }
        }
        return wrong;
    }

    private boolean reached(
            final Sidecar.Check check, final DeviceDeclaration.Congestion congestion, final Map<Integer, Long> counts) {
        boolean path = !check.pathWindow();
        for (final Map.Entry<Integer, Long> count : counts.entrySet()) {
            path |= count.getKey() < paths && count.getValue() >= pathLeast(congestion, count.getKey());
        }
        final boolean connection = !check.connectionWindow() || sum(counts) >= connectionLeast(congestion);
        return path && connection;
    }

    /** The most the path's window can be, as the tester knows it. */
    private double pathMost(final DeviceDeclaration.Congestion congestion, final int path) {
        final double initial = congestion.initialPathWindow();
        final double grown = grown(initial, grownBy[path]);
        return Math.min(SEND_WINDOW, decreased[path] ? Math.max(1, grown * congestion.decreaseFactor()) : grown);
    }

    /** The least a path's window is when no timer expired: what a count must reach to show it binds. */
    private long pathLeast(final DeviceDeclaration.Congestion congestion, final int path) {
        final double initial = congestion.initialPathWindow();
        return (long) Math.min(
                SEND_WINDOW,
                Math.floor(decreased[path] ? Math.max(1, initial * congestion.decreaseFactor()) : initial));
    }

    private double connectionMost(final DeviceDeclaration.Congestion congestion) {
        final double initial = congestion.initialConnectionWindow();
        final double grown = congestion.capped(grown(initial, sum(grownBy)));
        return connectionDecreased ? Math.max(1, grown * congestion.decreaseFactor()) : grown;
    }

    private long connectionLeast(final DeviceDeclaration.Congestion congestion) {
        final double initial = congestion.initialConnectionWindow();
        return (long) Math.floor(connectionDecreased ? Math.max(1, initial * congestion.decreaseFactor()) : initial);
    }

    /**
     * The largest a window of {@code initial} packets can be after {@code acknowledged} packets each added about 1/W
     * without CE (10.1.1, 10.1.2): at most 1/initial each, and, allowing up to 1/floor(W) (at most 2/W), at most
     * sqrt(initial^2 + 5 n), whichever is less (as ConnectionWindowCase bounds it).
     */
    private static double grown(final double initial, final double acknowledged) {
        return Math.min(initial + acknowledged / initial, Math.sqrt(initial * initial + 5.0 * acknowledged));
    }

    private static long sum(final Map<Integer, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static long sum(final long[] values) {
        long total = 0;
        for (final long value : values) {
            total += value;
        }
        return total;
    }
}

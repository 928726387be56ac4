package org.mrconf.selftest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.mrconf.variant.DeclarationSet;

/**
 * Samples the space of legal declarations ({@link DeclarationSet}) from a seed, and shrinks a set that a case falsely
 * blocks to the smallest one that still is, so a report names the combination that matters.
 *
 * <p>The sampling leans to the edges, where a case's arithmetic is most likely to be wrong: a third of the windows are
 * 1 to 3 packets, ACK coalescing is 1 or the most half the time. Shrinking moves one declaration at a time halfway to
 * the standard configuration's value (32/1024 windows, 16 packets per ACK, 8 us, the standard RTO, factor 0.5,
 * utilisation 0.95), and keeps a move while the set is still blocked.
 *
 * <p>A property-testing library was considered (the project's guide names jqwik): the version served here is built for
 * the JUnit Platform 1.x and its engine does not run under the JUnit 6 the project uses, so the few lines of sampling
 * and shrinking the property needs are here instead.
 */
public final class DeclarationSampler {
    /** The standard configuration's declarations: where shrinking moves each value. */
    static final DeclarationSet STANDARD = new DeclarationSet(32, 1024, 16, 8, 1, 0.5, 0.95);

    private final SplittableRandom random;

    /** A sampler whose sets follow from {@code seed} alone. */
    public DeclarationSampler(final long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** The next sampled set. */
    public DeclarationSet next() {
        final int pathWindow = random.nextInt(3) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(64);
        final int connectionWindow = random.nextInt(3) == 0 ? 1 + random.nextInt(3) : 1 + random.nextInt(256);
        final int ackCoalescing = switch (random.nextInt(4)) {
            case 0 -> 1;
            case 1 -> 64;
            default -> 1 + random.nextInt(64);
        };
        return new DeclarationSet(
                pathWindow,
                connectionWindow,
                ackCoalescing,
                1 + random.nextInt(100),
                1 + random.nextInt(4),
                round(0.3 + 0.6 * random.nextDouble()),
                round(0.5 + 0.5 * random.nextDouble()));
    }

    /** {@code count} sets, the first {@code count} this seed gives. */
    public List<DeclarationSet> sample(final int count) {
        final List<DeclarationSet> sets = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            sets.add(next());
        }
        return sets;
    }

    /**
     * The smallest set, one declaration moved at a time toward {@link #STANDARD}, for which {@code blocked} still
     * holds; {@code failing} itself if no move keeps it blocked. At most {@code budget} sets are tried.
     */
    public static DeclarationSet shrink(
            final DeclarationSet failing, final Predicate<DeclarationSet> blocked, final int budget) {
        DeclarationSet smallest = failing;
        int tried = 0;
        boolean moved = true;
        while (moved && tried < budget) {
            moved = false;
            for (final DeclarationSet candidate : towardStandard(smallest)) {
                if (tried++ >= budget) {
                    break;
                }
                if (blocked.test(candidate)) {
                    smallest = candidate;
                    moved = true;
                    break;
                }
            }
        }
        return smallest;
    }

    /** The sets one declaration of {@code set} closer to the standard value (the whole way first, then halfway). */
    static List<DeclarationSet> towardStandard(final DeclarationSet set) {
        final LinkedHashSet<DeclarationSet> moves = new LinkedHashSet<>();
        for (final boolean wholeWay : new boolean[] {true, false}) {
            move(moves, set, wholeWay, 0).ifPresent(moves::add);
            move(moves, set, wholeWay, 1).ifPresent(moves::add);
            move(moves, set, wholeWay, 2).ifPresent(moves::add);
            move(moves, set, wholeWay, 3).ifPresent(moves::add);
            move(moves, set, wholeWay, 4).ifPresent(moves::add);
            move(moves, set, wholeWay, 5).ifPresent(moves::add);
            move(moves, set, wholeWay, 6).ifPresent(moves::add);
        }
        moves.remove(set);
        return List.copyOf(moves);
    }

    private static Optional<DeclarationSet> move(
            final LinkedHashSet<DeclarationSet> seen, final DeclarationSet s, final boolean wholeWay, final int field) {
        final DeclarationSet t = STANDARD;
        final DeclarationSet moved = switch (field) {
            case 0 ->
                new DeclarationSet(
                        step(s.pathWindow(), t.pathWindow(), wholeWay),
                        s.connectionWindow(),
                        s.ackCoalescing(),
                        s.ackDelayUs(),
                        s.minRtoScale(),
                        s.decreaseFactor(),
                        s.targetUtilization());
            case 1 ->
                new DeclarationSet(
                        s.pathWindow(),
                        step(s.connectionWindow(), t.connectionWindow(), wholeWay),
                        s.ackCoalescing(),
                        s.ackDelayUs(),
                        s.minRtoScale(),
                        s.decreaseFactor(),
                        s.targetUtilization());
            case 2 ->
                new DeclarationSet(
                        s.pathWindow(),
                        s.connectionWindow(),
                        step(s.ackCoalescing(), t.ackCoalescing(), wholeWay),
                        s.ackDelayUs(),
                        s.minRtoScale(),
                        s.decreaseFactor(),
                        s.targetUtilization());
            case 3 ->
                new DeclarationSet(
                        s.pathWindow(),
                        s.connectionWindow(),
                        s.ackCoalescing(),
                        step(s.ackDelayUs(), t.ackDelayUs(), wholeWay),
                        s.minRtoScale(),
                        s.decreaseFactor(),
                        s.targetUtilization());
            case 4 ->
                new DeclarationSet(
                        s.pathWindow(),
                        s.connectionWindow(),
                        s.ackCoalescing(),
                        s.ackDelayUs(),
                        step(s.minRtoScale(), t.minRtoScale(), wholeWay),
                        s.decreaseFactor(),
                        s.targetUtilization());
            case 5 ->
                new DeclarationSet(
                        s.pathWindow(),
                        s.connectionWindow(),
                        s.ackCoalescing(),
                        s.ackDelayUs(),
                        s.minRtoScale(),
                        wholeWay ? t.decreaseFactor() : round((s.decreaseFactor() + t.decreaseFactor()) / 2),
                        s.targetUtilization());
            default ->
                new DeclarationSet(
                        s.pathWindow(),
                        s.connectionWindow(),
                        s.ackCoalescing(),
                        s.ackDelayUs(),
                        s.minRtoScale(),
                        s.decreaseFactor(),
                        wholeWay ? t.targetUtilization() : round((s.targetUtilization() + t.targetUtilization()) / 2));
        };
        return moved.equals(s) || seen.contains(moved) ? Optional.empty() : Optional.of(moved);
    }

    private static int step(final int from, final int to, final boolean wholeWay) {
        return wholeWay ? to : from + (to - from) / 2;
    }

    private static double round(final double value) {
        return Math.round(value * 100) / 100.0;
    }
}

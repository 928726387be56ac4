package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A seeded random impairment: each packet is independently dropped, delayed, duplicated or reordered with the given
 * probabilities. The fate of packet i is a pure function of the seed and i (not of how many packets were asked
 * about before), so the same seed replays the same run exactly. Immutable.
 *
 * @param seed      the seed; report it with a failure so the run can be replayed
 * @param drop      probability of {@link Fate.Kind#DROP}
 * @param delay     probability of {@link Fate.Kind#DELAY}
 * @param maxDelay  a delayed packet waits a uniform time up to this
 * @param duplicate probability of {@link Fate.Kind#DUPLICATE} (one extra copy)
 * @param reorder   probability of {@link Fate.Kind#REORDER}
 * @param maxBehind a reordered packet is overtaken by 1 to this many packets
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RandomImpairment(
        long seed, double drop, double delay, Duration maxDelay, double duplicate, double reorder, int maxBehind)
        implements Impairment {
    public RandomImpairment {
        Objects.requireNonNull(maxDelay, "maxDelay");
        double total =
                check(drop, "drop") + check(delay, "delay") + check(duplicate, "duplicate") + check(reorder, "reorder");
        if (total > 1.0) {
            throw new IllegalArgumentException("probabilities add up to more than 1: " + total);
        }
        if (maxDelay.isNegative() || maxBehind < 1) {
            throw new IllegalArgumentException("maxDelay must not be negative and maxBehind at least 1");
        }
    }

    /** Only loss, with probability {@code drop}. */
    public static RandomImpairment loss(long seed, double drop) {
        return new RandomImpairment(seed, drop, 0, Duration.ZERO, 0, 0, 1);
    }

    private static double check(double p, String name) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " probability must be 0 to 1: " + p);
        }
        return p;
    }

    @Override
    public Fate decide(long index, byte[] packet) {
        long bits = mix(seed + (index + 1) * 0x9E37_79B9_7F4A_7C15L);
        double u = (bits >>> 11) * 0x1.0p-53;
        long more = mix(bits);
        if (u < drop) {
            return Fate.drop();
        }
        if (u < drop + delay) {
            return Fate.delay(Duration.ofNanos(Math.floorMod(more, maxDelay.toNanos() + 1)));
        }
        if (u < drop + delay + duplicate) {
            return Fate.duplicate(2);
        }
        if (u < drop + delay + duplicate + reorder) {
            return Fate.reorder(1 + (int) Math.floorMod(more, (long) maxBehind));
        }
        return Fate.deliver();
    }

    /** SplitMix64's finaliser: a well-spread 64-bit hash. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}

package org.mrconf.fabric;

/**
 * A small, fully specified pseudo-random generator (SplitMix64) for impairments and route hashing.
 * Written out here rather than taken from the JDK so that a seed gives the same sequence on every JVM,
 * which makes a failing simulation reproducible anywhere. Not thread-safe; allocation-free.
 */
public final class SeededRandom {
    private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;
    private static final double DOUBLE_UNIT = 0x1.0p-53;

    private long state;

    public SeededRandom(final long seed) {
        this.state = seed;
    }

    /** The SplitMix64 finaliser: a strong, stateless 64-bit mix, also used to derive seeds and hashes. */
    public static long mix(final long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    /** A seed for a sub-component, derived from a parent seed and a distinguishing salt. */
    public static long derive(final long seed, final long salt) {
        return mix(seed + GOLDEN_GAMMA * (salt + 1));
    }

    /** The next 64 random bits. */
    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * DOUBLE_UNIT;
    }

    /** True with probability {@code probability}; consumes one draw whatever the probability. */
    public boolean nextBoolean(final double probability) {
        return nextDouble() < probability;
    }

    /** Uniform in [0, bound); {@code bound} must be positive. */
    public int nextInt(final int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound=" + bound + " must be positive");
        }
        return (int) nextLong(bound);
    }

    /** Uniform in [0, bound); {@code bound} must be positive. Unbiased (rejection sampling). */
    public long nextLong(final long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound=" + bound + " must be positive");
        }
        final long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound);
        long bits;
        do {
            bits = nextLong() >>> 1;
        } while (bits >= limit);
        return bits % bound;
    }
}

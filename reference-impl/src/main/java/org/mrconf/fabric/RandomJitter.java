package org.mrconf.fabric;

/**
 * Delays each packet by an extra amount drawn uniformly from {@code [0, maxExtraDelayNs]}, added to the
 * link's propagation delay. Packets still leave the queue in order, but uneven delays let a later packet
 * overtake an earlier one: this is how the fabric reorders.
 */
public final class RandomJitter implements LinkImpairment {
    private final long maxExtraDelayNs;
    private final SeededRandom random;

    public RandomJitter(final long maxExtraDelayNs, final long seed) {
        if (maxExtraDelayNs < 0) {
            throw new IllegalArgumentException("maxExtraDelayNs=" + maxExtraDelayNs + " must not be negative");
        }
        this.maxExtraDelayNs = maxExtraDelayNs;
        this.random = new SeededRandom(seed);
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        fate.delay(random.nextLong(maxExtraDelayNs + 1));
    }

    @Override
    public String toString() {
        return "RandomJitter{maxExtraDelayNs=" + maxExtraDelayNs + '}';
    }
}

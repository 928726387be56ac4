package org.mrconf.fabric;

/** Sends an extra copy of each packet with a fixed probability, right behind the original. */
public final class RandomDuplication implements LinkImpairment {
    private final double probability;
    private final SeededRandom random;

    public RandomDuplication(final double probability, final long seed) {
        this.probability = Probability.check("probability", probability);
        this.random = new SeededRandom(seed);
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        if (random.nextBoolean(probability)) {
            fate.duplicate();
        }
    }

    @Override
    public String toString() {
        return "RandomDuplication{probability=" + probability + '}';
    }
}

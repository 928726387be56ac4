package org.mrconf.fabric;

/** Drops each packet independently with a fixed probability (Bernoulli loss). */
public final class RandomLoss implements LinkImpairment {
    private final double probability;
    private final SeededRandom random;

    public RandomLoss(final double probability, final long seed) {
        this.probability = Probability.check("probability", probability);
        this.random = new SeededRandom(seed);
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        if (random.nextBoolean(probability)) {
            fate.drop();
        }
    }

    @Override
    public String toString() {
        return "RandomLoss{probability=" + probability + '}';
    }
}

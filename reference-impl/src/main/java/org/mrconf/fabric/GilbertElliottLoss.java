package org.mrconf.fabric;

/**
 * Bursty loss from the Gilbert-Elliott two-state Markov model: a GOOD state that loses packets rarely
 * and a BAD state that loses them often. Before deciding each packet the model may change state, with
 * probability {@code goodToBad} from GOOD and {@code badToGood} from BAD. The mean burst (stay in BAD)
 * is {@code 1 / badToGood} packets and the long-run fraction of time in BAD is
 * {@code goodToBad / (goodToBad + badToGood)}. Starts in GOOD.
 */
public final class GilbertElliottLoss implements LinkImpairment {
    private final double goodToBad;
    private final double badToGood;
    private final double lossInGood;
    private final double lossInBad;
    private final SeededRandom random;
    private boolean bad;

    /**
     * @param goodToBad  per-packet probability of moving from GOOD to BAD
     * @param badToGood  per-packet probability of moving from BAD to GOOD
     * @param lossInGood loss probability in GOOD (0 for the simple Gilbert model)
     * @param lossInBad  loss probability in BAD (1 for the simple Gilbert model)
     */
    public GilbertElliottLoss(
            final double goodToBad,
            final double badToGood,
            final double lossInGood,
            final double lossInBad,
            final long seed) {
        this.goodToBad = Probability.check("goodToBad", goodToBad);
        this.badToGood = Probability.check("badToGood", badToGood);
        this.lossInGood = Probability.check("lossInGood", lossInGood);
        this.lossInBad = Probability.check("lossInBad", lossInBad);
        this.random = new SeededRandom(seed);
    }

    /** Whether the model is in its BAD state. */
    public boolean isBad() {
        return bad;
    }

    /** The long-run loss rate the parameters imply. */
    public double meanLossRate() {
        final double denominator = goodToBad + badToGood;
        final double badFraction = denominator == 0.0 ? 0.0 : goodToBad / denominator;
        return badFraction * lossInBad + (1.0 - badFraction) * lossInGood;
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        if (random.nextBoolean(bad ? badToGood : goodToBad)) {
            bad = !bad;
        }
        if (random.nextBoolean(bad ? lossInBad : lossInGood)) {
            fate.drop();
        }
    }

    @Override
    public String toString() {
        return "GilbertElliottLoss{goodToBad=" + goodToBad + ", badToGood=" + badToGood + ", lossInGood=" + lossInGood
                + ", lossInBad=" + lossInBad + '}';
    }
}

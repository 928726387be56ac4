package org.mrconf.fabric;

/**
 * With a fixed probability, flips one uniformly chosen bit of a packet's UDP payload, as a bad link
 * whose error escaped the Ethernet FCS would. Empty packets are left alone.
 */
public final class BitCorruption implements LinkImpairment {
    private final double probability;
    private final SeededRandom random;

    public BitCorruption(final double probability, final long seed) {
        this.probability = Probability.check("probability", probability);
        this.random = new SeededRandom(seed);
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        if (random.nextBoolean(probability) && fate.length() > 0) {
            fate.flipBit(random.nextInt(fate.length() * 8));
        }
    }

    @Override
    public String toString() {
        return "BitCorruption{probability=" + probability + '}';
    }
}

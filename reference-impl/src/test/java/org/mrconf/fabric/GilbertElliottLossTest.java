package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class GilbertElliottLossTest {
    private static final int PACKETS = 200_000;
    private static final long SEED = 31L;
    /** Mean stay in BAD of 10 packets, about 1% of the time in BAD. */
    private static final double GOOD_TO_BAD = 0.001;

    private static final double BAD_TO_GOOD = 0.1;

    @Test
    void shouldClusterLossesInBursts() {
        final boolean[] drops = Impairments.decisions(gilbert(), PACKETS);

        // Each burst is a stay in BAD, mean 1 / BAD_TO_GOOD = 10 packets; about 200 bursts.
        assertThat(Impairments.meanRunLength(drops)).isBetween(6.0, 14.0);
    }

    @Test
    void shouldLoseAboutTheMeanRateItsParametersImply() {
        final GilbertElliottLoss loss = gilbert();

        final boolean[] drops = Impairments.decisions(loss, PACKETS);

        assertThat(loss.meanLossRate()).isCloseTo(0.0099, within(0.0001));
        assertThat(Impairments.count(drops) / (double) PACKETS).isBetween(0.006, 0.014);
    }

    @Test
    void shouldBurstFarMoreThanRandomLossAtTheSameRate() {
        final boolean[] bursty = Impairments.decisions(gilbert(), PACKETS);
        final boolean[] random = Impairments.decisions(new RandomLoss(0.0099, SEED), PACKETS);

        assertThat(Impairments.meanRunLength(random)).isLessThan(1.1);
        assertThat(Impairments.meanRunLength(bursty)).isGreaterThan(5 * Impairments.meanRunLength(random));
    }

    @Test
    void shouldLoseNothingInGoodStateWithTheSimpleGilbertModel() {
        final GilbertElliottLoss neverBad = new GilbertElliottLoss(0.0, 1.0, 0.0, 1.0, SEED);

        assertThat(Impairments.count(Impairments.decisions(neverBad, 10_000))).isZero();
        assertThat(neverBad.isBad()).isFalse();
    }

    private static GilbertElliottLoss gilbert() {
        return new GilbertElliottLoss(GOOD_TO_BAD, BAD_TO_GOOD, 0.0, 1.0, SEED);
    }
}

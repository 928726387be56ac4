package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RandomLossTest {
    private static final int PACKETS = 100_000;
    private static final long SEED = 21L;

    @Test
    void shouldDropAboutTheConfiguredFraction() {
        final boolean[] drops = Impairments.decisions(new RandomLoss(0.01, SEED), PACKETS);

        // Expect 1000, standard deviation about 31.5: five sigmas either side.
        assertThat(Impairments.count(drops)).isBetween(842, 1_158);
    }

    @Test
    void shouldRepeatTheSameDropsForTheSameSeed() {
        assertThat(Impairments.decisions(new RandomLoss(0.1, SEED), 1_000))
                .isEqualTo(Impairments.decisions(new RandomLoss(0.1, SEED), 1_000))
                .isNotEqualTo(Impairments.decisions(new RandomLoss(0.1, SEED + 1), 1_000));
    }

    @Test
    void shouldDropNothingAtZeroAndEverythingAtOne() {
        assertThat(Impairments.count(Impairments.decisions(new RandomLoss(0.0, SEED), 1_000)))
                .isZero();
        assertThat(Impairments.count(Impairments.decisions(new RandomLoss(1.0, SEED), 1_000)))
                .isEqualTo(1_000);
    }

    @Test
    void shouldRejectProbabilitiesOutsideZeroToOne() {
        assertThatThrownBy(() -> new RandomLoss(1.5, SEED)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RandomLoss(Double.NaN, SEED)).isInstanceOf(IllegalArgumentException.class);
    }
}

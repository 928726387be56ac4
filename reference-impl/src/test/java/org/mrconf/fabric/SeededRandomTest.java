package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SeededRandomTest {
    @Test
    void shouldProduceTheSplitMix64ReferenceSequence() {
        final SeededRandom random = new SeededRandom(0);

        assertThat(random.nextLong()).isEqualTo(0xE220_A839_7B1D_CDAFL);
    }

    @Test
    void shouldRepeatForTheSameSeedAndDifferForAnother() {
        final SeededRandom a = new SeededRandom(99);
        final SeededRandom b = new SeededRandom(99);
        final SeededRandom c = new SeededRandom(100);
        boolean anyDifferent = false;
        for (int i = 0; i < 100; i++) {
            final long value = a.nextLong();
            assertThat(b.nextLong()).isEqualTo(value);
            anyDifferent |= c.nextLong() != value;
        }
        assertThat(anyDifferent).isTrue();
    }

    @Test
    void shouldStayWithinBounds() {
        final SeededRandom random = new SeededRandom(5);
        final int[] counts = new int[7];
        for (int i = 0; i < 70_000; i++) {
            final double d = random.nextDouble();
            assertThat(d).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
            counts[random.nextInt(7)]++;
        }
        for (final int count : counts) {
            assertThat(count).isBetween(9_500, 10_500);
        }
    }

    @Test
    void shouldDeriveDistinctSeeds() {
        assertThat(SeededRandom.derive(1, 0)).isNotEqualTo(SeededRandom.derive(1, 1));
        assertThat(SeededRandom.derive(1, 0)).isNotEqualTo(SeededRandom.derive(2, 0));
        assertThat(SeededRandom.derive(1, 0)).isEqualTo(SeededRandom.derive(1, 0));
    }
}

package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link RtoBounds}: RFC 6298's values for known samples, and bounds that hold every run of samples within theirs. */
class RtoBoundsTest {

    @Test
    void oneSampleGivesThreeTimesIt() {
        assertThat(RtoBounds.exact(10_000)).isEqualTo(30_000);
    }

    @Test
    void equalSamplesLetTheVarianceDecayByAQuarterEach() {
        final long[] samples = new long[16];
        Arrays.fill(samples, 1_000_000);
        // SRTT stays at A; RTTVAR = A/2 (3/4)^15.
        assertThat(RtoBounds.exact(samples)).isCloseTo(1_000_000 * (1 + 2 * Math.pow(0.75, 15)), within(1e-3));
    }

    @Test
    void aLongSampleFadesFromTheSmoothedRttByAnEighthEach() {
        final long[] samples = {4_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000};
        double srtt = 4_000_000;
        double rttvar = 2_000_000;
        for (int i = 1; i < samples.length; i++) {
            rttvar = 0.75 * rttvar + 0.25 * Math.abs(srtt - samples[i]);
            srtt = 0.875 * srtt + 0.125 * samples[i];
        }
        assertThat(RtoBounds.exact(samples)).isCloseTo(srtt + 4 * rttvar, within(1e-3));
        assertThat(RtoBounds.exact(samples) / 1_000_000).isCloseTo(9.467, within(0.001));
    }

    /**
     * Soundness, which the case's fairness rests on: for random runs of sample bounds, the RTO of every run of samples
     * within them (the ends, and random points), computed as the reference does in whole nanoseconds, lies within
     * the bounds.
     */
    @Test
    void everyRunOfSamplesWithinTheirBoundsGivesAnRtoWithinTheBounds() {
        final SplittableRandom random = new SplittableRandom(20261207);
        for (int trial = 0; trial < 2_000; trial++) {
            final int count = 1 + random.nextInt(20);
            final long[] low = new long[count];
            final long[] high = new long[count];
            for (int i = 0; i < count; i++) {
                low[i] = 1_000 + random.nextLong(50_000_000);
                high[i] = low[i] + random.nextLong(1 + random.nextLong(5_000_000));
            }
            final RtoBounds bounds = RtoBounds.after(low, high);
            assertThat(bounds.lowestNs()).isLessThanOrEqualTo(bounds.highestNs());
            for (int pick = 0; pick < 20; pick++) {
                final long[] samples = new long[count];
                for (int i = 0; i < count; i++) {
                    samples[i] = switch (pick) {
                        case 0 -> low[i];
                        case 1 -> high[i];
                        default -> low[i] + random.nextLong(high[i] - low[i] + 1);
                    };
                }
                final double exact = RtoBounds.exact(samples);
                assertThat(exact).isBetween(bounds.lowestNs() - 1e-6, bounds.highestNs() + 1e-6);
                // In whole nanoseconds, truncating each step as integer arithmetic does, the RTO is at most a few
                // nanoseconds below the exact one.
                assertThat((double) integerRto(samples)).isBetween(bounds.lowestNs() - 16, bounds.highestNs() + 1e-6);
            }
        }
    }

    @Test
    void clampedKeepsBothBoundsWithinTheDeclaredRange() {
        final RtoBounds clamped = new RtoBounds(50, 5_000).clamped(100, 1_000);
        assertThat(clamped.lowestNs()).isEqualTo(100);
        assertThat(clamped.highestNs()).isEqualTo(1_000);
    }

    private static long integerRto(final long[] samples) {
        long srtt = samples[0];
        long rttvar = samples[0] / 2;
        for (int i = 1; i < samples.length; i++) {
            rttvar += (Math.abs(srtt - samples[i]) - rttvar) / 4;
            srtt += (samples[i] - srtt) / 8;
        }
        return srtt + 4 * rttvar;
    }
}

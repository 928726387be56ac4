package org.mrconf.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** {@link SmoothedRttBounds}: RFC 6298's SRTT for samples known exactly, and nothing before the first sample. */
class SmoothedRttBoundsTest {
    @Test
    void shouldSmoothExactSamplesAsRfc6298Does() {
        final SmoothedRttBounds smoothed = new SmoothedRttBounds();
        assertThat(smoothed.sampled()).isFalse();
        smoothed.sample(8_000, 8_000);
        assertThat(smoothed.srttHighNs()).isEqualTo(8_000);
        assertThat(smoothed.rtoLowNs()).as("SRTT + 4 x R/2").isEqualTo(24_000);
        smoothed.sample(16_000, 16_000);
        // SRTT = 7/8 x 8000 + 1/8 x 16000; RTTVAR = 3/4 x 4000 + 1/4 x |8000 - 16000|
        assertThat(smoothed.srttLowNs()).isCloseTo(9_000, within(1e-9));
        assertThat(smoothed.rtoHighNs()).isCloseTo(9_000 + 4 * 5_000, within(1e-9));
    }

    @Test
    void shouldHoldBoundedSamplesBetweenTheirExtremes() {
        final SmoothedRttBounds smoothed = new SmoothedRttBounds();
        smoothed.sample(1_000, 3_000);
        smoothed.sample(2_000, 2_500);
        assertThat(smoothed.srttLowNs()).isLessThan(smoothed.srttHighNs());
        assertThat(smoothed.rtoLowNs()).isLessThan(smoothed.rtoHighNs());
        assertThatThrownBy(() -> smoothed.sample(5, 4)).isInstanceOf(IllegalArgumentException.class);
    }
}

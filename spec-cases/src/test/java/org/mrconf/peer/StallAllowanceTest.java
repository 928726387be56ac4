package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The one rule of timing checks on a loaded host: a miss within the host's stall is INCONCLUSIVE, never FAIL. */
class StallAllowanceTest {
    private static final long MS = 1_000_000L;

    private static StallMonitor withStall(final long wakeNs, final long stallNs) {
        final StallMonitor monitor =
                new StallMonitor(() -> 0L, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        monitor.record(wakeNs, stallNs);
        return monitor;
    }

    @Test
    void shouldMeasureTheMissOnEitherSideOfTheBound() {
        assertThat(StallAllowance.missNs(150, 100, 200)).isZero();
        assertThat(StallAllowance.missNs(80, 100, 200)).isEqualTo(20);
        assertThat(StallAllowance.missNs(230, 100, 200)).isEqualTo(30);
        assertThat(StallAllowance.overNs(230, 200)).isEqualTo(30);
        assertThat(StallAllowance.overNs(130, 200)).isZero();
        assertThat(StallAllowance.underNs(80, 100)).isEqualTo(20);
    }

    @Test
    void shouldBeInconclusiveWhenTheMissIsWithinTheStallOfTheWindowAndNameIt() {
        final StallMonitor stalls = withStall(1050 * MS, 102 * MS);
        assertThatThrownBy(() -> StallAllowance.excuse(stalls, "6.6.3: interval 2", 102 * MS, 1000 * MS, 1100 * MS))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("6.6.3: interval 2")
                .hasMessageContaining("the host stalled 102.0 ms during the measurement")
                .hasMessageContaining("missed its bound by 102.0 ms")
                .hasMessageContaining("re-run on an idle host");
    }

    @Test
    void shouldLeaveTheVerdictToTheCheckWhenTheMissIsLargerThanTheStall() {
        final StallMonitor stalls = withStall(1050 * MS, 102 * MS);
        assertThatCode(() -> StallAllowance.excuse(stalls, "x", 103 * MS, 1000 * MS, 1100 * MS))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldLeaveTheVerdictToTheCheckWhenTheStallWasOutsideTheWindow() {
        final StallMonitor stalls = withStall(500 * MS, 102 * MS);
        assertThatCode(() -> StallAllowance.excuse(stalls, "x", 5 * MS, 1000 * MS, 1100 * MS))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldDoNothingWithoutAMiss() {
        final StallMonitor stalls = withStall(1050 * MS, 102 * MS);
        assertThatCode(() -> StallAllowance.excuse(stalls, "x", 0, 1000 * MS, 1100 * MS))
                .doesNotThrowAnyException();
        assertThat(StallAllowance.reason("x", 0, 5 * MS)).isEmpty();
        assertThat(StallAllowance.reason("x", 5 * MS, 0)).isEmpty();
        assertThat(StallAllowance.reason("x", 5 * MS, 5 * MS)).isPresent();
    }

    @Test
    void shouldCountASilenceOnlyNetOfTheStallInIt() {
        // RateHintFloorCase's premise: the DUT was quiet for 30 ms, so its window is full.
        final StallMonitor stalls = withStall(1040 * MS, 25 * MS);
        assertThat(StallAllowance.quietFor(StallMonitor.none(), 1000 * MS, 1030 * MS, 30 * MS))
                .isTrue();
        assertThat(StallAllowance.quietFor(stalls, 1000 * MS, 1050 * MS, 30 * MS))
                .as("50 ms of silence holding a 25 ms stall")
                .isFalse();
        assertThat(StallAllowance.quietFor(stalls, 1000 * MS, 1055 * MS, 30 * MS))
                .as("55 ms of silence holding a 25 ms stall")
                .isTrue();
        assertThat(StallAllowance.quietFor(stalls, 1000 * MS, 1020 * MS, 30 * MS))
                .isFalse();
    }
}

package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** A stalled attempt is tried again; the first attempt that decides is the verdict, and nothing else is retried. */
class HostStalledTest {
    @Test
    void shouldTryAgainAfterAStallAndKeepTheFirstDecision() throws Exception {
        final AtomicInteger runs = new AtomicInteger();
        HostStalled.retry(3, () -> {
            if (runs.incrementAndGet() == 1) {
                throw new HostStalled("stalled 80 ms");
            }
        });
        assertThat(runs).hasValue(2);
    }

    @Test
    void shouldNeverRetryAFailureOrAnotherReasonToGiveUp() {
        final AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> HostStalled.retry(3, () -> {
                    runs.incrementAndGet();
                    throw new AssertionError("6.6.3: interval 2");
                }))
                .isInstanceOf(AssertionError.class);
        assertThat(runs).hasValue(1);
        assertThatThrownBy(() -> HostStalled.retry(3, () -> {
                    runs.incrementAndGet();
                    throw new TestAbortedException("the device declares no timers");
                }))
                .isNotInstanceOf(HostStalled.class);
        assertThat(runs).hasValue(2);
    }

    @Test
    void shouldNameEveryStallWhenNoAttemptDecides() {
        final AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> HostStalled.retry(3, () -> {
                    throw new HostStalled("stalled " + (10 * runs.incrementAndGet()) + " ms");
                }))
                .isInstanceOf(HostStalled.class)
                .hasMessageContaining("each of 3 attempts")
                .hasMessageContaining("stalled 10 ms; then stalled 20 ms; then stalled 30 ms");
    }

    @Test
    void shouldMakeStallAllowanceThrowAHostStall() {
        final StallMonitor monitor = new StallMonitor(
                () -> 0L, nanos -> {}, java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(1), 16);
        monitor.record(50_000_000L, 40_000_000L);
        assertThatThrownBy(() -> StallAllowance.excuse(monitor, "interval 1", 5_000_000L, 0, 60_000_000L))
                .isInstanceOf(HostStalled.class);
    }
}

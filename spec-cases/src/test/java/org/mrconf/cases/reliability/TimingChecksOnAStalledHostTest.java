package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.StallMonitor;
import org.opentest4j.TestAbortedException;

/**
 * The timer checks of {@link TimerCase} (6.6.1 to 6.6.5, and {@code LongHaulCase}'s backoff) and {@link
 * FastRetransmitPaceCase} (6.4.3) on a host that stalled: a miss within the recorded stall of the measuring window is
 * INCONCLUSIVE ({@link TestAbortedException}), a larger one still FAILs ({@link AssertionError}). The measured values
 * are those of the reference's {@code NO_RTO_BACKOFF} defect (the second interval stays at the initial RTO) and of a
 * timer that fired late on a starved host.
 */
class TimingChecksOnAStalledHostTest {
    private static final long MS = 1_000_000L;
    private static final long FROM = 10_000 * MS;
    private static final long TO = FROM + 100 * MS;

    private static final DeviceDeclaration.Timers TIMERS = new DeviceDeclaration.Timers(
            Duration.ofMillis(10),
            Duration.ofMillis(100),
            Duration.ofSeconds(1),
            Duration.ofMillis(1),
            16,
            3,
            Duration.ofSeconds(10),
            Duration.ofMillis(5),
            Optional.empty());

    /** A monitor that saw one stall of {@code stallMs} in the middle of the measuring window. */
    private static StallMonitor stalled(final long stallMs) {
        final StallMonitor monitor =
                new StallMonitor(() -> TO, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        monitor.record(FROM + 60 * MS, stallMs * MS);
        return monitor;
    }

    @Test
    void shouldMakeAnIntervalThatMissesTheBackoffWithinTheStallInconclusive() {
        // NO_RTO_BACKOFF: the second interval is 100 ms where 200 ms (at least 195 ms) is due; it misses by 95 ms.
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 100 * MS, 100 * MS, 200 * MS, "6.6.3: interval 2", stalled(102), FROM, TO))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("the host stalled 102.0 ms")
                .hasMessageContaining("missed its bound by 95.0 ms");
    }

    @Test
    void shouldStillFailAnIntervalThatMissesTheBackoffByMoreThanTheStall() {
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 100 * MS, 100 * MS, 200 * MS, "6.6.3: interval 2", stalled(50), FROM, TO))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("6.6.3: interval 2");
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 100 * MS, 100 * MS, 200 * MS, "6.6.3: interval 2", StallMonitor.none(), FROM, TO))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void shouldMakeATimerThatFiredLateWithinTheStallInconclusiveAndOneLaterStillAFailure() {
        // 100 ms expected, at most 205 ms allowed; the timer fired at 307 ms by both clocks: 102 ms late.
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 307 * MS, 307 * MS, 100 * MS, "6.6.2: interval 1", stalled(102), FROM, TO))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("6.6.2: interval 1");
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 400 * MS, 400 * MS, 100 * MS, "6.6.2: interval 1", stalled(102), FROM, TO))
                .isInstanceOf(AssertionError.class);
        assertThatCode(() -> TimerCase.judge(
                        TIMERS, 150 * MS, 150 * MS, 100 * MS, "6.6.2: interval 1", stalled(102), FROM, TO))
                .doesNotThrowAnyException();
    }

    @Test
    void shouldJudgeByTheDutsClockWhenOnlyTheTestersIsOffAndByNoMoreThanItsHostsStall() {
        // 320 ms expected (300 to 645 allowed); the DUT stamped 320 ms, the tester received the earlier packet 25 ms
        // late and measured 295 ms: a stall of 30 ms lets the DUT's clock decide, none leaves it undecided.
        assertThatCode(() -> TimerCase.judge(
                        TIMERS, 295 * MS, 320 * MS, 320 * MS, "6.6.3: interval 6", stalled(30), FROM, TO))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 295 * MS, 320 * MS, 320 * MS, "6.6.3: interval 6", StallMonitor.none(), FROM, TO))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("only one is within");
        // The tester's clock in range and the DUT's not: the DUT's own stamps are never excused.
        assertThatThrownBy(() -> TimerCase.judge(
                        TIMERS, 320 * MS, 295 * MS, 320 * MS, "6.6.3: interval 6", stalled(30), FROM, TO))
                .isInstanceOf(TestAbortedException.class);
    }

    @Test
    void shouldMakeACopyForAGapEarlyWithinTheStallInconclusive() {
        // 6.4.3: no second copy within 195 ms of the resend; one came at 120 ms by both clocks, 75 ms early.
        assertThatThrownBy(
                        () -> FastRetransmitPaceCase.judgeCopy(7, 120 * MS, 120 * MS, 195 * MS, stalled(80), FROM, TO))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("6.4.3");
        assertThatThrownBy(
                        () -> FastRetransmitPaceCase.judgeCopy(7, 120 * MS, 120 * MS, 195 * MS, stalled(70), FROM, TO))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("6.4.3");
    }
}

package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.peer.StallMonitor;
import org.opentest4j.TestAbortedException;

/**
 * The timer checks of vector replay ({@link HeldAckChecks}: {@code resentOldest} and {@code backoff}, as in
 * {@code 6.6.2/dut-timer-resends-the-oldest-psn}, {@code 6.6.4/dut-timeout-changes-the-source-port} and {@code
 * 6.6.5/dut-backs-off-to-the-long-haul-maximum}) on a host that stalled: a miss within the recorded stall of the
 * interval makes the attempt INCONCLUSIVE ({@link TestAbortedException}), a larger one is still a failure.
 */
class HeldAckTimingOnAStalledHostTest {
    private static final long MS = 1_000_000L;
    private static final long START = 50_000 * MS;

    /** Long-haul timers: initial 20 ms, maximum 1 s, tolerance 5 ms. */
    private static final DeviceDeclaration.Timers LONG_HAUL = new DeviceDeclaration.Timers(
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofSeconds(1),
            Duration.ofMillis(1),
            16,
            3,
            Duration.ofSeconds(30),
            Duration.ofMillis(5),
            Optional.empty());

    /** Intervals back to back from {@link #START}, the same by both clocks. */
    private static List<HeldAckChecks.Interval> intervals(final long... millis) {
        final List<HeldAckChecks.Interval> intervals = new ArrayList<>();
        long at = START;
        for (final long ms : millis) {
            intervals.add(new HeldAckChecks.Interval(ms * MS, ms * MS, at, at + ms * MS));
            at += ms * MS;
        }
        return intervals;
    }

    /** A monitor that saw one stall of {@code stallMs}, ending {@code endsAfterMs} after {@link #START}. */
    private static StallMonitor stalled(final long endsAfterMs, final long stallMs) {
        final StallMonitor monitor =
                new StallMonitor(() -> START, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        monitor.record(START + endsAfterMs * MS, stallMs * MS);
        return monitor;
    }

    @Test
    void shouldMakeABackoffIntervalLateWithinTheStallInconclusive() {
        // 20, 40, then 80 ms due (at most 165 ms): the timer fired 102 ms late, at 267 ms, during a 102 ms stall.
        final List<String> failures = new ArrayList<>();
        assertThatThrownBy(() -> HeldAckChecks.doubles(
                        LONG_HAUL, intervals(20, 40, 267), "path 0's oldest PSN 0", stalled(200, 102), failures))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("interval 3")
                .hasMessageContaining("the host stalled 102.0 ms");
        assertThat(failures).isEmpty();
    }

    @Test
    void shouldStillFailABackoffIntervalLateByMoreThanTheStall() {
        final List<String> failures = new ArrayList<>();
        HeldAckChecks.doubles(LONG_HAUL, intervals(20, 40, 267), "path 0's oldest PSN 0", stalled(200, 60), failures);
        assertThat(failures).singleElement().asString().contains("interval 3");
        // The stall was before the interval: it does not excuse it.
        final List<String> elsewhere = new ArrayList<>();
        HeldAckChecks.doubles(LONG_HAUL, intervals(20, 40, 267), "path 0's oldest PSN 0", stalled(30, 150), elsewhere);
        assertThat(elsewhere).singleElement().asString().contains("interval 3");
    }

    @Test
    void shouldMakeAMissedBackoffWithinTheStallInconclusiveAndBeyondItAFailure() {
        // NO_RTO_BACKOFF: the second interval stays at 20 ms where 40 ms (at least 35 ms) is due: 15 ms short.
        assertThatThrownBy(() -> HeldAckChecks.doubles(
                        LONG_HAUL, intervals(20, 20), "path 0's oldest PSN 0", stalled(30, 16), new ArrayList<>()))
                .isInstanceOf(TestAbortedException.class);
        final List<String> failures = new ArrayList<>();
        HeldAckChecks.doubles(LONG_HAUL, intervals(20, 20), "path 0's oldest PSN 0", stalled(30, 14), failures);
        assertThat(failures).singleElement().asString().contains("interval 2");
    }

    @Test
    void shouldMakeAnIntervalShortenedByALateResendBeforeItInconclusive() {
        // 20 ms due, then 40: the first resend came 25 ms late (a 25 ms stall in interval 1, still within its bound),
        // and a DUT that keeps its expiries on their schedule sent the second 15 ms after it, where 35 ms is due.
        assertThatThrownBy(() -> HeldAckChecks.doubles(
                        LONG_HAUL, intervals(45, 15), "path 0's oldest PSN 0", stalled(45, 25), new ArrayList<>()))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("interval 2");
        // Without a stall it is a failure, as before.
        final List<String> failures = new ArrayList<>();
        HeldAckChecks.doubles(LONG_HAUL, intervals(20, 10), "path 0's oldest PSN 0", stalled(5, 1), failures);
        assertThat(failures).singleElement().asString().contains("interval 2");
    }

    @Test
    void shouldMakeAnIntervalBeyondTheMaximumRtoWithinTheStallInconclusive() {
        // 6.6.2: at most the maximum RTO plus the tolerance, 1005 ms; RTO_NOT_CLAMPED_TO_MAX-like 1100 ms.
        assertThatThrownBy(() -> HeldAckChecks.clamped(
                        LONG_HAUL, intervals(1100), "path 0's oldest PSN 0", stalled(600, 100), new ArrayList<>()))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("transmission 2");
        final List<String> failures = new ArrayList<>();
        HeldAckChecks.clamped(LONG_HAUL, intervals(1100), "path 0's oldest PSN 0", stalled(600, 90), failures);
        assertThat(failures).singleElement().asString().contains("clamped to the declared maximum");
    }
}

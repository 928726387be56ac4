package org.mrconf.softdut;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Only the time the loop slept past what it asked for is its host's lateness. */
class OversleepMeterTest {
    private static final long MS = 1_000_000L;

    private final OversleepMeter meter = new OversleepMeter(MS);

    @Test
    void shouldCountOnlyTheOversleepBeyondTheResolution() {
        meter.sleeping(100 * MS, 90 * MS);
        assertThat(meter.woke(130 * MS)).isEqualTo(29 * MS);
        meter.sleeping(200 * MS, 150 * MS);
        assertThat(meter.woke(200 * MS + MS / 2)).isZero();
    }

    @Test
    void shouldMeasureADeadlineAlreadyPastFromTheMomentTheLoopSlept() {
        // A timer armed 500 ms in the past (the device's own lateness, as a defect may arm it) is due at once: a
        // wake-up 0.5 ms after going to sleep is on time, and only what comes after the sleep counts.
        meter.sleeping(100 * MS, 600 * MS);
        assertThat(meter.woke(600 * MS + MS / 2)).isZero();
        meter.sleeping(100 * MS, 600 * MS);
        assertThat(meter.woke(611 * MS)).isEqualTo(10 * MS);
    }

    @Test
    void shouldMeasureEachSleepOnceAndNeverASleepWithoutDeadline() {
        meter.sleeping(100 * MS, 90 * MS);
        assertThat(meter.woke(120 * MS)).isEqualTo(19 * MS);
        assertThat(meter.woke(500 * MS)).as("the same sleep again").isZero();
        meter.sleepingWithoutDeadline();
        assertThat(meter.woke(900 * MS)).isZero();
    }

    @Test
    void shouldCountAWakeUpAskedForFromOutsideFromTheMomentItWasAsked() {
        // Asleep until 100 ms; a packet arrives at 40 ms and the loop runs at 52 ms: the host held it 11 ms past
        // the resolution. A request after the deadline changes nothing.
        meter.sleeping(100 * MS, 30 * MS);
        meter.wakeRequested(40 * MS);
        assertThat(meter.woke(52 * MS)).isEqualTo(11 * MS);
        meter.sleeping(100 * MS, 30 * MS);
        meter.wakeRequested(120 * MS);
        assertThat(meter.woke(110 * MS)).isEqualTo(9 * MS);
        meter.sleepingWithoutDeadline();
        meter.wakeRequested(200 * MS);
        assertThat(meter.woke(200 * MS + MS / 2)).as("woken at once").isZero();
    }
}

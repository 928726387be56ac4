package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The stall monitor on a clock the test drives: no thread races a real sleep. */
class StallMonitorTest {
    private static final long MS = 1_000_000L;

    /** A clock that a sleeper advances by the interval plus the next queued lateness. */
    private static final class FakeHost {
        long nowNs = 1_000 * MS;
        final Deque<Long> lateness = new ArrayDeque<>();

        StallMonitor monitor(final int capacity) {
            return new StallMonitor(
                    () -> nowNs,
                    nanos -> nowNs += nanos + (lateness.isEmpty() ? 0 : lateness.poll()),
                    Duration.ofMillis(1),
                    Duration.ofMillis(1),
                    capacity);
        }
    }

    @Test
    void shouldRecordHowLateATickWokeOnceItReachesTheThreshold() throws Exception {
        final FakeHost host = new FakeHost();
        final StallMonitor monitor = host.monitor(16);
        host.lateness.add(0L);
        host.lateness.add(MS / 2);
        host.lateness.add(102 * MS);
        assertThat(monitor.tick()).isZero();
        assertThat(monitor.tick()).isEqualTo(MS / 2);
        final long beforeStall = host.nowNs;
        assertThat(monitor.tick()).isEqualTo(102 * MS);
        // Only the stall at or above the 1 ms threshold is kept.
        assertThat(monitor.stalls()).isEqualTo(1);
        assertThat(monitor.longestStallNs(beforeStall, host.nowNs)).isEqualTo(102 * MS);
        assertThat(monitor.longestEverNs()).isEqualTo(102 * MS);
    }

    @Test
    void shouldAnswerOnlyWithStallsThatOverlapTheWindow() {
        final StallMonitor monitor = new FakeHost().monitor(16);
        // A stall of 50 ms ending at 1000 ms covered [950, 1000] ms.
        monitor.record(1000 * MS, 50 * MS);
        monitor.record(2000 * MS, 10 * MS);
        assertThat(monitor.longestStallNs(900 * MS, 940 * MS)).as("before it").isZero();
        assertThat(monitor.longestStallNs(960 * MS, 970 * MS)).as("inside it").isEqualTo(50 * MS);
        assertThat(monitor.longestStallNs(990 * MS, 1500 * MS)).as("its end").isEqualTo(50 * MS);
        assertThat(monitor.longestStallNs(1001 * MS, 1989 * MS))
                .as("between the two")
                .isZero();
        assertThat(monitor.longestStallNs(900 * MS, 2100 * MS)).as("both").isEqualTo(50 * MS);
        assertThat(monitor.longestStallNs(1995 * MS, 2100 * MS)).isEqualTo(10 * MS);
    }

    @Test
    void shouldAnswerWithTheLongestStallEverWhenTheRingNoLongerReachesBackToTheWindow() {
        final StallMonitor monitor = new FakeHost().monitor(2);
        monitor.record(100 * MS, 80 * MS);
        monitor.record(200 * MS, 2 * MS);
        monitor.record(300 * MS, 3 * MS);
        // The 80 ms stall was overwritten: a window from 50 ms cannot be answered from the ring any more.
        assertThat(monitor.longestStallNs(50 * MS, 400 * MS)).isEqualTo(80 * MS);
        // A window the ring still covers is answered exactly.
        assertThat(monitor.longestStallNs(250 * MS, 400 * MS)).isEqualTo(3 * MS);
    }

    @Test
    void shouldFindAStallRecordedBeforeAnotherThatEndedEarlier() {
        // Two recorders (this monitor's thread and a device on the same host): the newer record ended before the
        // window, the older one overlaps it, and must still be found.
        final StallMonitor monitor = new FakeHost().monitor(16);
        monitor.record(1_000 * MS, 300 * MS); // [700, 1000] ms
        monitor.record(500 * MS, 2 * MS); // [498, 500] ms, recorded later
        assertThat(monitor.longestStallNs(800 * MS, 900 * MS)).isEqualTo(300 * MS);
    }

    @Test
    void shouldSeeNoStallWhenNothingIsInstalled() {
        final StallMonitor none = StallMonitor.none();
        assertThat(none.longestStallNs(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2)).isZero();
    }

    @Test
    void shouldCountAStallStillGoingOnWhenTheThreadIsOverdue() throws Exception {
        final long[] now = {10_000 * MS};
        final Semaphore asleep = new Semaphore(0);
        final Semaphore never = new Semaphore(0);
        final StallMonitor monitor = new StallMonitor(
                () -> now[0],
                nanos -> {
                    asleep.release();
                    never.acquire(); // held until close() interrupts it
                },
                Duration.ofMillis(1),
                Duration.ofMillis(1),
                16);
        monitor.startThread();
        try {
            assertThat(asleep.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
            // The thread went to sleep at 10 s and has not woken 40 ms later: a stall of 39 ms is still going on.
            now[0] += 40 * MS;
            assertThat(monitor.longestStallNs(now[0] - 20 * MS, now[0])).isEqualTo(39 * MS);
        } finally {
            monitor.close();
        }
        assertThat(monitor.longestStallNs(now[0] - 20 * MS, now[0]))
                .as("stopped")
                .isZero();
    }

    @Test
    void shouldStopItsDaemonThreadOnClose() throws Exception {
        final Semaphore asleep = new Semaphore(0);
        final Thread[] running = new Thread[1];
        final StallMonitor monitor = new StallMonitor(
                System::nanoTime,
                nanos -> {
                    running[0] = Thread.currentThread();
                    asleep.release();
                    new Semaphore(0).acquire();
                },
                Duration.ofMillis(1),
                Duration.ofMillis(1),
                16);
        monitor.startThread();
        assertThat(asleep.tryAcquire(30, TimeUnit.SECONDS)).isTrue();
        assertThat(running[0].isDaemon()).isTrue();
        monitor.close();
        running[0].join(TimeUnit.SECONDS.toMillis(30));
        assertThat(running[0].isAlive()).isFalse();
    }
}

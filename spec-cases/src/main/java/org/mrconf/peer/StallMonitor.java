package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.apiguardian.api.API;

/**
 * The tester host's scheduling stalls, measured as jHiccup does: a daemon thread sleeps a short fixed {@link
 * #interval()} again and again on the tester's clock, and each time it wakes later than it asked, the host (the OS
 * scheduler, a garbage collection, a starved CPU) held it back by that much. A stall holds back every thread of the
 * host alike: the tester's own receive timestamps, and the timers of an embedded reference in the same JVM. A timing
 * check asks {@link #longestStallNs} for the longest stall of its measuring window and gives the device the benefit
 * of it ({@link StallAllowance}).
 *
 * <p>Stalls of at least {@link #threshold()} are kept in a bounded ring of (wake time, stall) pairs, oldest
 * overwritten first; a tick allocates nothing. A window that reaches back before the oldest kept stall, once the
 * ring has overwritten some, is answered with the longest stall ever seen, since what it held is no longer known.
 *
 * <p>Everything time-dependent takes a clock: {@link #start} runs the thread on the given clock and sleeper; a test
 * drives {@link #tick()} itself, or {@link #record}s stalls directly, without any thread or real sleep.
 */
@API(status = EXPERIMENTAL, since = "0.15")
public final class StallMonitor implements AutoCloseable {
    /** How the monitor waits one interval; {@link #threadSleep()} in a run, a clock advance in a test. */
    @FunctionalInterface
    public interface Sleeper {
        /** Waits about {@code nanos} nanoseconds (longer when the host stalls). */
        void sleep(long nanos) throws InterruptedException;

        /** {@link Thread#sleep(long, int)}. */
        static Sleeper threadSleep() {
            return nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        }
    }

    /** The interval the thread sleeps by default. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(1);
    /** The least lateness kept by default: a sleep commonly overshoots by tens of microseconds on an idle host. */
    public static final Duration DEFAULT_THRESHOLD = Duration.ofMillis(1);
    /** Stalls kept by default: at least a minute of history on a host that stalls on every tick. */
    public static final int DEFAULT_CAPACITY = 1 << 16;

    private final LongSupplier clock;
    private final Sleeper sleeper;
    private final long intervalNs;
    private final long thresholdNs;
    private final long[] wakeNs;
    private final long[] stallNs;
    /** Stalls recorded so far; the next goes at {@code count % capacity}. Guarded by {@code this}. */
    private long count;
    /** The longest stall recorded so far. Guarded by {@code this}. */
    private long longestEverNs;
    /** When the thread last went to sleep, or {@link Long#MIN_VALUE} when it is not running. */
    private volatile long asleepSinceNs = Long.MIN_VALUE;

    private volatile Thread thread;
    private volatile boolean stopping;

    /**
     * A monitor that is not running yet.
     *
     * @param clock     the tester's clock in nanoseconds: the one that stamps received packets
     * @param sleeper   how one interval is waited
     * @param interval  how long each sleep asks for
     * @param threshold the least lateness recorded as a stall
     * @param capacity  how many stalls the ring keeps
     */
    public StallMonitor(
            final LongSupplier clock,
            final Sleeper sleeper,
            final Duration interval,
            final Duration threshold,
            final int capacity) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.intervalNs = interval.toNanos();
        this.thresholdNs = threshold.toNanos();
        if (intervalNs <= 0 || thresholdNs < 0 || capacity < 1) {
            throw new IllegalArgumentException("interval must be positive, threshold not negative, capacity >= 1");
        }
        this.wakeNs = new long[capacity];
        this.stallNs = new long[capacity];
    }

    /** A monitor on {@code clock} with the default interval, threshold and capacity, not running yet. */
    public static StallMonitor on(final LongSupplier clock) {
        return new StallMonitor(clock, Sleeper.threadSleep(), DEFAULT_INTERVAL, DEFAULT_THRESHOLD, DEFAULT_CAPACITY);
    }

    /** Starts a monitor on {@code clock} with the defaults: one daemon thread, stopped by {@link #close()}. */
    public static StallMonitor start(final LongSupplier clock) {
        return on(clock).startThread();
    }

    /** A monitor that never runs and has seen no stall: what a case gets when no run installed one. */
    public static StallMonitor none() {
        return new StallMonitor(System::nanoTime, nanos -> {}, DEFAULT_INTERVAL, DEFAULT_THRESHOLD, 1);
    }

    /** Starts this monitor's thread (once). */
    public synchronized StallMonitor startThread() {
        if (thread != null) {
            throw new IllegalStateException("the stall monitor is already running");
        }
        final Thread started = new Thread(this::loop, "metaroce-stall-monitor");
        started.setDaemon(true);
        thread = started;
        asleepSinceNs = clock.getAsLong();
        started.start();
        return this;
    }

    private void loop() {
        while (!stopping) {
            try {
                tick();
            } catch (final InterruptedException e) {
                if (stopping) {
                    return;
                }
            }
        }
    }

    /**
     * One measurement: sleeps one interval and records how much later than asked it woke, when that is at least the
     * threshold. Returns the lateness (0 when on time).
     */
    public long tick() throws InterruptedException {
        final long beforeNs = clock.getAsLong();
        asleepSinceNs = beforeNs;
        sleeper.sleep(intervalNs);
        final long afterNs = clock.getAsLong();
        final long lateNs = Math.max(0, afterNs - beforeNs - intervalNs);
        if (lateNs >= thresholdNs && lateNs > 0) {
            record(afterNs, lateNs);
        }
        return lateNs;
    }

    /** Records a stall of {@code stallNanos} that ended at {@code wakeNanos} on the clock (a test's direct input). */
    public synchronized void record(final long wakeNanos, final long stallNanos) {
        final int at = (int) (count % wakeNs.length);
        wakeNs[at] = wakeNanos;
        stallNs[at] = stallNanos;
        count++;
        longestEverNs = Math.max(longestEverNs, stallNanos);
    }

    /**
     * The longest stall that overlapped {@code [fromNs, toNs]} on the clock, 0 when none did. A stall recorded at
     * wake time w of length s covered {@code [w - s, w]}. A stall still going on now (the thread is overdue) counts
     * too, when it began by {@code toNs}.
     */
    public long longestStallNs(final long fromNs, final long toNs) {
        long longest = ongoingStallNs(toNs);
        synchronized (this) {
            final long kept = Math.min(count, wakeNs.length);
            // Every kept stall is looked at: they come from more than one recorder (this monitor's thread, and a
            // device sharing the host that reports its own late wake-ups), so their wake times are not in order, and
            // an older record may still overlap the window.
            boolean reachedBack = count <= wakeNs.length; // nothing overwritten: the ring holds every stall there was
            for (long i = count - 1; i >= count - kept; i--) {
                final int at = (int) (i % wakeNs.length);
                if (wakeNs[at] - fromNs < 0) {
                    reachedBack = true; // a stall kept that ended before the window: the lost ones are older still
                    continue;
                }
                if (wakeNs[at] - stallNs[at] - toNs <= 0) {
                    longest = Math.max(longest, stallNs[at]);
                }
            }
            if (!reachedBack) {
                longest = Math.max(longest, longestEverNs);
            }
        }
        return longest;
    }

    /**
     * How overdue the thread is now, when it should have woken by {@code toNs}; 0 when it is not running or on time.
     */
    private long ongoingStallNs(final long toNs) {
        final long last = asleepSinceNs;
        if (thread == null || last == Long.MIN_VALUE || last + intervalNs - toNs > 0) {
            return 0;
        }
        final long overdue = clock.getAsLong() - last - intervalNs;
        return overdue >= thresholdNs ? Math.max(0, overdue) : 0;
    }

    /** Whether the monitor's thread runs (started and not yet stopped). */
    public boolean running() {
        final Thread started = thread;
        return started != null && started.isAlive() && !stopping;
    }

    /** The longest stall seen since the monitor was made. */
    public synchronized long longestEverNs() {
        return longestEverNs;
    }

    /** How many stalls were recorded (including those the ring no longer keeps). */
    public synchronized long stalls() {
        return count;
    }

    /** The tester's clock this monitor reads, in nanoseconds. */
    public long nowNs() {
        return clock.getAsLong();
    }

    public Duration interval() {
        return Duration.ofNanos(intervalNs);
    }

    public Duration threshold() {
        return Duration.ofNanos(thresholdNs);
    }

    /** Stops the thread, if it runs, and waits for it. */
    @Override
    public void close() {
        stopping = true;
        final Thread running = thread;
        if (running != null) {
            running.interrupt();
            try {
                running.join(1000);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        asleepSinceNs = Long.MIN_VALUE;
    }
}

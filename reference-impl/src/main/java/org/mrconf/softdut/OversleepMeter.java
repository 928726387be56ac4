package org.mrconf.softdut;

/**
 * How much later than it asked the DUT loop woke: the part of a wake-up's delay its host, not the device, caused. The
 * loop sleeps until its next deadline, or not at all when that deadline has already passed; only the time it slept
 * past what it asked for counts. A deadline already behind when the loop went to sleep is the device's own lateness
 * (a timer it armed in the past, as a defect may), never the host's: it is measured from the moment the loop slept.
 * A wake-up asked for from outside (a packet or a control request arrived) counts the same way, from the moment it was
 * asked: the loop had nothing to do but run, so the time it took to get the CPU was the host's.
 */
final class OversleepMeter {
    /** What the loop's sleep can resolve (a selector's millisecond): oversleeping by less is not lateness. */
    private final long resolutionNs;

    /** When the loop asked to wake, or {@link Long#MAX_VALUE} when it slept without a deadline. */
    private long askedNs = Long.MAX_VALUE;

    OversleepMeter(final long resolutionNs) {
        this.resolutionNs = resolutionNs;
    }

    /** The loop goes to sleep at {@code nowNs} until {@code deadlineNs} (at once when it is already due). */
    void sleeping(final long deadlineNs, final long nowNs) {
        askedNs = deadlineNs - nowNs < 0 ? nowNs : deadlineNs;
    }

    /** The loop goes to sleep with no deadline (until work arrives): no wake-up of it is late. */
    void sleepingWithoutDeadline() {
        askedNs = Long.MAX_VALUE;
    }

    /**
     * Another thread asked the sleeping loop to wake at {@code requestNs} (work arrived): the loop should have woken
     * then, if that is sooner than its own deadline. Loop thread only, once it runs again, before {@link #woke}.
     */
    void wakeRequested(final long requestNs) {
        if (askedNs == Long.MAX_VALUE || requestNs - askedNs < 0) {
            askedNs = requestNs;
        }
    }

    /**
     * The loop woke at {@code nowNs}: how far past its asked-for wake-up, less the sleep's resolution; 0 when on time.
     * Forgets the sleep, so each is measured once.
     */
    long woke(final long nowNs) {
        if (askedNs == Long.MAX_VALUE) {
            return 0;
        }
        final long lateNs = nowNs - askedNs - resolutionNs;
        askedNs = Long.MAX_VALUE;
        return Math.max(0, lateNs);
    }
}

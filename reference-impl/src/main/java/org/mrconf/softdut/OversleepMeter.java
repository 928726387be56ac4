package org.mrconf.softdut;

/**
 * How much later than it asked the DUT loop woke: the part of a wake-up's delay its host, not the device, caused. The
 * loop sleeps until its next deadline, or not at all when that deadline has already passed; only the time it slept
 * past what it asked for counts. A deadline already behind when the loop went to sleep is the device's own lateness
 * (a timer it armed in the past, as a defect may), never the host's: it is measured from the moment the loop slept.
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

package org.mrconf.transport;

/**
 * The decisions a sending path takes about its PSNs, timers and windows ({@link PathSender}, {@link RttEstimator},
 * {@link AimdWindow}, {@link DecreaseSpacing}, {@link TailLossProbe}, {@link ReorderTolerance}), each answered by
 * {@link #CORRECT} as the spec says. The reference's self-validation defects (package
 * {@code org.mrconf.transport.defects.sender}) replace one answer each and forward the rest; nothing here allocates.
 */
public interface SenderSeam {
    /** The first PSN of a path: the one the connection declared (clause 6.1.1), already masked to 32 bits. */
    default long initialPsn(final long declaredPsn) {
        return declaredPsn;
    }

    /** The PSNs a path may have outstanding: the window the spec fixes (clause 6.2.1). */
    default int sendWindow(final int window) {
        return window;
    }

    /** The RTO before any RTT sample: the declared initial RTO (clause 6.6.2). */
    default long firstRtoNs(final long minRtoNs, final long initialRtoNs) {
        return initialRtoNs;
    }

    /**
     * Whether an RTT sample sets the estimate afresh (SRTT = R, RTTVAR = R / 2) instead of smoothing it into the one
     * before: for the first sample of the path only (clause 6.6.1, RFC 6298 section 2).
     */
    default boolean sampleStartsEstimate(final boolean hasSample) {
        return !hasSample;
    }

    /** The backoff after a sample that shows progress: none, the computed RTO again (clause 6.6.3). */
    default int backoffAfterProgress(final int backoffShift) {
        return 0;
    }

    /** The backoff after an expiry with no answer: one doubling more, up to 2^30 (clause 6.6.3). */
    default int backoffAfterExpiry(final int backoffShift) {
        return backoffShift < 30 ? backoffShift + 1 : backoffShift;
    }

    /** The RTO {@code rtoNs} doubled {@code backoffShift} times, never past {@code maxRtoNs} (clause 6.6.3). */
    default long backedOffRtoNs(final long rtoNs, final int backoffShift, final long maxRtoNs) {
        long rto = rtoNs;
        for (int i = 0; i < backoffShift && rto < maxRtoNs; i++) {
            rto = Math.min(maxRtoNs, rto * 2);
        }
        return rto;
    }

    /** The RTO a path arms, given the backed-off one: that one, whatever its size (clause 6.6.4). */
    default long armedRtoNs(final long rtoNs) {
        return rtoNs;
    }

    /** The most a window whose first value is {@code first} may grow to (clause 10.1.6): {@code withCongestion} with the congestion profile, else the first value. */
    default int largestWindow(final int first, final int withCongestion, final boolean congestionOffered) {
        return congestionOffered ? withCongestion : Math.min(first, withCongestion);
    }

    /** Whether a CE report decreases an AIMD window, given whether the decrease spacing allows one (clauses 10.1.1, 10.1.2): exactly then. */
    default boolean ceReportDecreases(final boolean spacingAllows) {
        return spacingAllows;
    }

    /** The additive growth of an AIMD window of {@code window} packets for {@code newlyAcked} packets: newlyAcked / window (clause 10.1.1). */
    default double growth(final int newlyAcked, final double window) {
        return (double) newlyAcked / window;
    }

    /** When the decrease spacing counts from after a CE report that could not decrease: the last decrease still (clause 10.1.2). */
    default long spacingStartAfterHeldReport(final long lastDecreaseNs, final long nowNs) {
        return lastDecreaseNs;
    }

    /** Whether a CE report that could not decrease grows the window as an unmarked ACK would: never (clause 10.1.2). */
    default boolean heldReportGrows() {
        return false;
    }

    /** How long after a tail-loss probe another is armed, or -1 for none: none, the timer takes over (clause 6.5.2). */
    default long tailProbeRepeatDelayNs(final long srttNs) {
        return -1;
    }

    /** Whether a PSN a tail-loss probe showed lost is resent on a new entropy: yes (clause 6.5.3). */
    default boolean repathAfterTailProbe() {
        return true;
    }

    /** Whether a declared reorder tolerance holds gaps back: yes (clause 6.3.3). */
    default boolean honoursReorderTolerance() {
        return true;
    }

    /** When the declared reorder time starts for a gap: when an ACK first showed it (clause 6.3.3). */
    default long reorderTimeStartNs(final long gapSeenNs, final long sentNs) {
        return gapSeenNs;
    }

    /** The spec's answer to every decision. */
    SenderSeam CORRECT = new SenderSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements SenderSeam {
        protected final SenderSeam next;

        protected Forwarding(final SenderSeam next) {
            this.next = next;
        }

        @Override
        public long initialPsn(final long declaredPsn) {
            return next.initialPsn(declaredPsn);
        }

        @Override
        public int sendWindow(final int window) {
            return next.sendWindow(window);
        }

        @Override
        public long firstRtoNs(final long minRtoNs, final long initialRtoNs) {
            return next.firstRtoNs(minRtoNs, initialRtoNs);
        }

        @Override
        public boolean sampleStartsEstimate(final boolean hasSample) {
            return next.sampleStartsEstimate(hasSample);
        }

        @Override
        public int backoffAfterProgress(final int backoffShift) {
            return next.backoffAfterProgress(backoffShift);
        }

        @Override
        public int backoffAfterExpiry(final int backoffShift) {
            return next.backoffAfterExpiry(backoffShift);
        }

        @Override
        public long backedOffRtoNs(final long rtoNs, final int backoffShift, final long maxRtoNs) {
            return next.backedOffRtoNs(rtoNs, backoffShift, maxRtoNs);
        }

        @Override
        public long armedRtoNs(final long rtoNs) {
            return next.armedRtoNs(rtoNs);
        }

        @Override
        public int largestWindow(final int first, final int withCongestion, final boolean congestionOffered) {
            return next.largestWindow(first, withCongestion, congestionOffered);
        }

        @Override
        public boolean ceReportDecreases(final boolean spacingAllows) {
            return next.ceReportDecreases(spacingAllows);
        }

        @Override
        public double growth(final int newlyAcked, final double window) {
            return next.growth(newlyAcked, window);
        }

        @Override
        public long spacingStartAfterHeldReport(final long lastDecreaseNs, final long nowNs) {
            return next.spacingStartAfterHeldReport(lastDecreaseNs, nowNs);
        }

        @Override
        public boolean heldReportGrows() {
            return next.heldReportGrows();
        }

        @Override
        public long tailProbeRepeatDelayNs(final long srttNs) {
            return next.tailProbeRepeatDelayNs(srttNs);
        }

        @Override
        public boolean repathAfterTailProbe() {
            return next.repathAfterTailProbe();
        }

        @Override
        public boolean honoursReorderTolerance() {
            return next.honoursReorderTolerance();
        }

        @Override
        public long reorderTimeStartNs(final long gapSeenNs, final long sentNs) {
            return next.reorderTimeStartNs(gapSeenNs, sentNs);
        }
    }
}

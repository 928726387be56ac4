package org.mrconf.transport;

/**
 * Smoothed RTT, RTT variance and the retransmission timeout of one path (spec clauses 6.6.1 to 6.6.3,
 * RFC 6298 with alpha 1/8 and beta 1/4), with exponential backoff.
 */
final class RttEstimator {
    private final long minRtoNs;
    private final long maxRtoNs;
    private final long initialRtoNs;
    private long srttNs;
    private long rttVarNs;
    private boolean hasSample;
    private int backoffShift;
    private long minRttNs = Long.MAX_VALUE;

    // Self-validation defects (org.mrconf.defect.Defect); all false for the clean reference.
    private final boolean noBackoff;
    private final boolean notClampedToMax;
    private final boolean backoffNotRestored;
    private final boolean cappedAt511Ms;
    private final boolean initialAtMinimum;

    /** The ceiling of a 9-bit millisecond timer field ({@link org.mrconf.defect.Defect#RTO_CAPPED_AT_511_MS}). */
    private static final long NINE_BIT_MS_CEILING_NS = 511_000_000L;

    RttEstimator(final long minRtoNs, final long initialRtoNs, final long maxRtoNs) {
        this(minRtoNs, initialRtoNs, maxRtoNs, org.mrconf.defect.Defects.NONE);
    }

    RttEstimator(
            final long minRtoNs,
            final long initialRtoNs,
            final long maxRtoNs,
            final org.mrconf.defect.Defects defects) {
        this.noBackoff = defects.has(org.mrconf.defect.Defect.NO_RTO_BACKOFF);
        this.notClampedToMax = defects.has(org.mrconf.defect.Defect.RTO_NOT_CLAMPED_TO_MAX);
        this.backoffNotRestored = defects.has(org.mrconf.defect.Defect.BACKOFF_NOT_RESTORED);
        this.cappedAt511Ms = defects.has(org.mrconf.defect.Defect.RTO_CAPPED_AT_511_MS);
        this.initialAtMinimum = defects.has(org.mrconf.defect.Defect.INITIAL_RTO_AT_MINIMUM);
        this.minRtoNs = minRtoNs;
        this.initialRtoNs = initialRtoNs;
        this.maxRtoNs = maxRtoNs;
    }

    /** Adds one RTT sample and ends any backoff, since the path answered. */
    void onSample(final long rttNs) {
        onSample(rttNs, true);
    }

    /**
     * Adds one RTT sample; ends any backoff only when {@code endsBackoff}: a late ACK (Table 5-13) gives a sample but
     * shows no progress, so it leaves the backed-off timeout (clause 6.6.3).
     */
    void onSample(final long rttNs, final boolean endsBackoff) {
        minRttNs = Math.min(minRttNs, rttNs);
        if (!hasSample) {
            srttNs = rttNs;
            rttVarNs = rttNs / 2;
            hasSample = true;
        } else {
            rttVarNs += (Math.abs(srttNs - rttNs) - rttVarNs) / 4;
            srttNs += (rttNs - srttNs) / 8;
        }
        if (endsBackoff && !backoffNotRestored) {
            backoffShift = 0;
        }
    }

    /** Doubles the timeout after an expiry with no answer, up to the maximum. */
    void backOff() {
        if (backoffShift < 30 && !noBackoff) {
            backoffShift++;
        }
    }

    /** Restores the computed timeout: the path made progress. */
    void resetBackoff() {
        backoffShift = 0;
    }

    boolean hasSample() {
        return hasSample;
    }

    /** The smoothed RTT, or the initial RTO before the first sample. */
    long srttNs() {
        return hasSample ? srttNs : initialRtoNs;
    }

    long rttVarNs() {
        return rttVarNs;
    }

    /** The smallest sample seen: the path's RTT without queueing, or the initial RTO before any sample. */
    long minRttNs() {
        return hasSample ? minRttNs : initialRtoNs;
    }

    /** The current timeout including backoff, clamped to [min RTO, max RTO]. */
    long rtoNs() {
        final long base =
                hasSample ? srttNs + Math.max(1_000, 4 * rttVarNs) : initialAtMinimum ? minRtoNs : initialRtoNs;
        long rto = Math.max(minRtoNs, Math.min(maxRtoNs, base));
        for (int i = 0; i < backoffShift && (rto < maxRtoNs || notClampedToMax); i++) {
            rto = notClampedToMax ? rto * 2 : Math.min(maxRtoNs, rto * 2);
        }
        return cappedAt511Ms ? Math.min(rto, NINE_BIT_MS_CEILING_NS) : rto;
    }
}

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

    /** The RTO before any sample. */
    private final long firstRtoNs;

    /** The decisions the spec fixes about backoff and the armed RTO. */
    private final SenderSeam seam;

    RttEstimator(final long minRtoNs, final long initialRtoNs, final long maxRtoNs) {
        this(minRtoNs, initialRtoNs, maxRtoNs, SenderSeam.CORRECT);
    }

    RttEstimator(final long minRtoNs, final long initialRtoNs, final long maxRtoNs, final SenderSeam seam) {
        this.seam = seam;
        this.firstRtoNs = seam.firstRtoNs(minRtoNs, initialRtoNs);
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
        if (seam.sampleStartsEstimate(hasSample)) {
            srttNs = rttNs;
            rttVarNs = rttNs / 2;
            hasSample = true;
        } else {
            rttVarNs += (Math.abs(srttNs - rttNs) - rttVarNs) / 4;
            srttNs += (rttNs - srttNs) / 8;
        }
        if (endsBackoff) {
            backoffShift = seam.backoffAfterProgress(backoffShift);
        }
    }

    /** Doubles the timeout after an expiry with no answer, up to the maximum. */
    void backOff() {
        backoffShift = seam.backoffAfterExpiry(backoffShift);
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
        final long base = hasSample ? srttNs + Math.max(1_000, 4 * rttVarNs) : firstRtoNs;
        final long rto = Math.max(minRtoNs, Math.min(maxRtoNs, base));
        return seam.armedRtoNs(backoffShift == 0 ? rto : seam.backedOffRtoNs(rto, backoffShift, maxRtoNs));
    }
}

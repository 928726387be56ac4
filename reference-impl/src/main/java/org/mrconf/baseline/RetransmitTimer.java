package org.mrconf.baseline;

/**
 * The requester's one retransmission timer with exponential backoff. Armed while DATA is outstanding;
 * each timeout doubles the timeout (up to a cap) and counts against the retry budget, and progress
 * resets both. Owned and driven by {@link GbnRequester}.
 */
final class RetransmitTimer {
    private final long baseRtoNs;
    private final long maxRtoNs;
    private long rtoNs;
    private long deadlineNs = Long.MAX_VALUE;
    private int consecutiveTimeouts;

    RetransmitTimer(final long baseRtoNs, final long maxRtoNs) {
        this.baseRtoNs = baseRtoNs;
        this.maxRtoNs = maxRtoNs;
        this.rtoNs = baseRtoNs;
    }

    /** (Re)starts the timer from {@code nowNs} with the current timeout. */
    void arm(final long nowNs) {
        deadlineNs = nowNs + rtoNs;
    }

    void disarm() {
        deadlineNs = Long.MAX_VALUE;
    }

    boolean isArmed() {
        return deadlineNs != Long.MAX_VALUE;
    }

    boolean isExpired(final long nowNs) {
        return isArmed() && deadlineNs - nowNs <= 0;
    }

    /** The deadline, or {@link Long#MAX_VALUE} when disarmed. */
    long deadlineNs() {
        return deadlineNs;
    }

    /** The responder acknowledged new data: the backoff and retry count start over. */
    void onProgress() {
        consecutiveTimeouts = 0;
        rtoNs = baseRtoNs;
    }

    /** The timer expired and the requester retries: back off and re-arm. */
    void onTimeout(final long nowNs) {
        consecutiveTimeouts++;
        rtoNs = Math.min(rtoNs * 2, maxRtoNs);
        arm(nowNs);
    }

    int consecutiveTimeouts() {
        return consecutiveTimeouts;
    }

    long rtoNs() {
        return rtoNs;
    }
}

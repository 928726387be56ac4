package org.mrconf.transport;

/**
 * The bytes of receive-side state that packets from the wire may make an endpoint allocate: stream
 * records, message rings and segment trackers. A peer that names new streams or far-ahead messages can
 * only spend this budget; when it is spent, the packet that would need more is dropped, counted and not
 * recorded (its sender retries it), and everything already tracked keeps working. The charges are
 * estimates of the retained heap, close enough to bound it, not an exact accounting.
 *
 * <p>Long-lived state (stream records, grown rings) may take at most three quarters of the budget, so
 * that a flood of new stream ids cannot leave no room for the short-lived segment trackers of the
 * messages of streams already in use.
 */
final class StateBudget {
    /** A stream record with its counters and empty ring headers. */
    static final long STREAM_BYTES = 160;
    /** One slot of a stream's message ring (seven parallel arrays). */
    static final long MESSAGE_SLOT_BYTES = 48;
    /** A segment tracker of a message in progress, at its initial four ranges. */
    static final long TRACKER_BYTES = 128;

    private final long limitBytes;
    private long usedBytes;
    private long longLivedBytes;

    StateBudget(final long limitBytes) {
        this.limitBytes = limitBytes;
    }

    /** Charges {@code bytes} of long-lived state if they fit in its share; false, charging nothing, if not. */
    boolean tryChargeLongLived(final long bytes) {
        if (longLivedBytes + bytes > limitBytes - limitBytes / 4) {
            return false;
        }
        if (!tryCharge(bytes)) {
            return false;
        }
        longLivedBytes += bytes;
        return true;
    }

    /** Charges long-lived bytes the application's own request needs, even over the budget. */
    void chargeLongLived(final long bytes) {
        longLivedBytes += bytes;
        usedBytes += bytes;
    }

    /** Returns long-lived bytes charged with {@link #tryChargeLongLived}. */
    void refundLongLived(final long bytes) {
        longLivedBytes -= bytes;
        usedBytes -= bytes;
    }

    /** Charges {@code bytes} if they fit; false, charging nothing, if they do not. */
    boolean tryCharge(final long bytes) {
        if (usedBytes + bytes > limitBytes) {
            return false;
        }
        usedBytes += bytes;
        return true;
    }

    void refund(final long bytes) {
        usedBytes -= bytes;
    }

    long usedBytes() {
        return usedBytes;
    }

    long limitBytes() {
        return limitBytes;
    }
}

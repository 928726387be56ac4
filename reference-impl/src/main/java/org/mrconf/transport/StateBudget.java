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
 *
 * <p>Every connection charges through its own {@link Share}, which holds a <em>reserve</em> set aside when the
 * connection is created: bytes only that connection's packets may use, so that a peer flooding one connection, or
 * several, with new stream ids cannot starve another connection (its first WRITE always finds a stream record and a
 * tracker). What a connection uses beyond its reserve comes from the rest of the budget, first come first served.
 * The budget counts each connection as the larger of what it uses and its reserve ({@link #committedBytes()}); the
 * reserves of connections created while the budget is spent are set aside all the same, so the state held is at
 * most the budget plus one reserve per connection.
 */
final class StateBudget {
    /** A stream record with its counters and empty ring headers. */
    static final long STREAM_BYTES = 160;
    /** One slot of a stream's message ring (seven parallel arrays). */
    static final long MESSAGE_SLOT_BYTES = 48;
    /** A segment tracker of a message in progress, at its initial four ranges. */
    static final long TRACKER_BYTES = 128;
    /** Smallest long-lived reserve of a connection: a few stream records at their initial rings. */
    static final long MIN_LONG_LIVED_RESERVE_BYTES = 1024;
    /** Smallest short-lived reserve of a connection: a few segment trackers. */
    static final long MIN_SHORT_LIVED_RESERVE_BYTES = 4 * TRACKER_BYTES;

    private final long limitBytes;
    private final long longLivedReserveBytes;
    private final long shortLivedReserveBytes;
    /** Bytes of state held, over all connections. */
    private long usedBytes;
    /** Bytes held or set aside: per connection, the larger of its use and its reserve, long- and short-lived. */
    private long committedBytes;
    /** The long-lived part of {@link #committedBytes}. */
    private long committedLongLivedBytes;

    StateBudget(final long limitBytes) {
        this.limitBytes = limitBytes;
        // A 64 MiB budget reserves 16 KiB (about 45 stream records) and 4 KiB (32 trackers) per connection; 1,024
        // connections set aside about a third of it.
        this.longLivedReserveBytes = Math.max(MIN_LONG_LIVED_RESERVE_BYTES, limitBytes / 4096);
        this.shortLivedReserveBytes = Math.max(MIN_SHORT_LIVED_RESERVE_BYTES, limitBytes / 16384);
    }

    /** A new connection's account, with its reserve set aside (even over the budget: creating it was asked for). */
    Share openShare() {
        committedLongLivedBytes += longLivedReserveBytes;
        committedBytes += longLivedReserveBytes + shortLivedReserveBytes;
        return new Share();
    }

    private boolean tryCommit(final long longLived, final long shortLived) {
        if (committedLongLivedBytes + longLived > limitBytes - limitBytes / 4
                || committedBytes + longLived + shortLived > limitBytes) {
            return false;
        }
        commit(longLived, shortLived);
        return true;
    }

    private void commit(final long longLived, final long shortLived) {
        committedLongLivedBytes += longLived;
        committedBytes += longLived + shortLived;
    }

    /** Bytes of state held over all connections. */
    long usedBytes() {
        return usedBytes;
    }

    /** Bytes held or set aside as reserves. */
    long committedBytes() {
        return committedBytes;
    }

    long limitBytes() {
        return limitBytes;
    }

    /** Bytes each connection has to itself, long-lived and short-lived together. */
    long reservePerConnection() {
        return longLivedReserveBytes + shortLivedReserveBytes;
    }

    /** Bytes beyond a reserve that using {@code bytes} more adds (a negative {@code bytes} returns them). */
    private static long beyond(final long used, final long bytes, final long reserve) {
        return Math.max(used + bytes, reserve) - Math.max(used, reserve);
    }

    /** What one connection's state is charged to: its reserve first, then the rest of the budget. Allocation-free. */
    final class Share {
        private long longLivedBytes;
        private long shortLivedBytes;
        private boolean closed;

        private Share() {}

        /** Charges {@code bytes} of long-lived state if they fit; false, charging nothing, if not. */
        boolean tryChargeLongLived(final long bytes) {
            final long extra = beyond(longLivedBytes, bytes, longLivedReserveBytes);
            if (extra > 0 && !tryCommit(extra, 0)) {
                return false;
            }
            longLivedBytes += bytes;
            usedBytes += bytes;
            return true;
        }

        /** Charges long-lived bytes the application's own request needs, even over the budget. */
        void chargeLongLived(final long bytes) {
            commit(beyond(longLivedBytes, bytes, longLivedReserveBytes), 0);
            longLivedBytes += bytes;
            usedBytes += bytes;
        }

        /** Returns long-lived bytes charged with {@link #tryChargeLongLived} or {@link #chargeLongLived}. */
        void refundLongLived(final long bytes) {
            commit(beyond(longLivedBytes, -bytes, longLivedReserveBytes), 0);
            longLivedBytes -= bytes;
            usedBytes -= bytes;
        }

        /** Charges {@code bytes} of short-lived state if they fit; false, charging nothing, if not. */
        boolean tryCharge(final long bytes) {
            final long extra = beyond(shortLivedBytes, bytes, shortLivedReserveBytes);
            if (extra > 0 && !tryCommit(0, extra)) {
                return false;
            }
            shortLivedBytes += bytes;
            usedBytes += bytes;
            return true;
        }

        void refund(final long bytes) {
            commit(0, beyond(shortLivedBytes, -bytes, shortLivedReserveBytes));
            shortLivedBytes -= bytes;
            usedBytes -= bytes;
        }

        /** Gives the reserve back; called once the connection's streams have refunded what they charged. */
        void close() {
            if (closed) {
                return;
            }
            closed = true;
            commit(
                    -Math.max(longLivedBytes, longLivedReserveBytes),
                    -Math.max(shortLivedBytes, shortLivedReserveBytes));
            usedBytes -= longLivedBytes + shortLivedBytes;
            longLivedBytes = 0;
            shortLivedBytes = 0;
        }
    }
}

package org.mrconf.transport;

/**
 * A token bucket that keeps a connection's sending rate within a limit: the NIC line rate and the
 * receiver's fair-share rate hint (spec clause 10.1.4). The bucket holds at most one burst, so over any
 * interval the bytes sent stay within rate * interval + burst.
 */
final class Pacer {
    private final long burstBytes;
    private long rateBitsPerSecond;
    private double tokens;
    private long lastRefillNs;

    Pacer(final long rateBitsPerSecond, final long burstBytes, final long nowNs) {
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.burstBytes = burstBytes;
        this.tokens = burstBytes;
        this.lastRefillNs = nowNs;
    }

    /** Changes the rate from now on. */
    void rate(final long bitsPerSecond, final long nowNs) {
        refill(nowNs);
        this.rateBitsPerSecond = Math.max(1, bitsPerSecond);
    }

    long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /** Whether {@code bytes} may go now. */
    boolean canSend(final int bytes, final long nowNs) {
        refill(nowNs);
        return tokens >= Math.min(bytes, burstBytes);
    }

    /** Takes the tokens for a packet that is being sent. */
    void onSent(final int bytes, final long nowNs) {
        refill(nowNs);
        tokens -= bytes;
    }

    /** The earliest time {@code bytes} may go. */
    long eligibleAtNs(final int bytes, final long nowNs) {
        refill(nowNs);
        final double missing = Math.min(bytes, burstBytes) - tokens;
        if (missing <= 0) {
            return nowNs;
        }
        return nowNs + (long) Math.ceil(missing * 8e9 / rateBitsPerSecond);
    }

    private void refill(final long nowNs) {
        final long elapsed = nowNs - lastRefillNs;
        if (elapsed > 0) {
            tokens = Math.min(burstBytes, tokens + elapsed * (rateBitsPerSecond / 8e9));
            lastRefillNs = nowNs;
        }
    }
}

package org.mrconf.transport;

/**
 * A token bucket that keeps a connection's sending rate within a limit: the NIC line rate and the
 * receiver's fair-share rate hint (spec clause 10.1.4). The bucket holds at most one burst, so over any
 * interval the bytes sent stay within rate * interval + burst.
 *
 * <p>With a tick (freedom F-25, a coarser pacing granularity) the bucket is refilled only at whole ticks, as a timer
 * wheel would: tokens are never credited before their time, so the bound holds and the sender is only slower.
 */
final class Pacer {
    private final long burstBytes;
    /** Refill granularity in ns; 0 refills continuously. */
    private final long tickNs;

    private long rateBitsPerSecond;
    private double tokens;
    private long lastRefillNs;

    Pacer(final long rateBitsPerSecond, final long burstBytes, final long nowNs) {
        this(rateBitsPerSecond, burstBytes, nowNs, 0);
    }

    Pacer(final long rateBitsPerSecond, final long burstBytes, final long nowNs, final long tickNs) {
        this.tickNs = tickNs;
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
        // The tokens held are those credited up to the last refill (now, without a tick); with a tick the missing ones
        // are credited at the first tick boundary that covers them.
        final long waitNs = (long) Math.ceil(missing * 8e9 / rateBitsPerSecond);
        return Math.max(nowNs, lastRefillNs + (tickNs > 0 ? ceilToTick(waitNs) : waitNs));
    }

    private long ceilToTick(final long ns) {
        return (ns + tickNs - 1) / tickNs * tickNs;
    }

    private void refill(final long nowNs) {
        long elapsed = nowNs - lastRefillNs;
        if (tickNs > 0 && elapsed > 0) {
            elapsed -= elapsed % tickNs;
        }
        if (elapsed > 0) {
            tokens = Math.min(burstBytes, tokens + elapsed * (rateBitsPerSecond / 8e9));
            lastRefillNs += elapsed;
        }
    }
}

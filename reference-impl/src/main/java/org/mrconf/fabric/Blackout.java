package org.mrconf.fabric;

/**
 * Drops every packet entering the link from {@code fromNs} (inclusive) until {@code untilNs}
 * (exclusive): a failed switch or cut fibre. Packets already queued or on the wire still arrive.
 */
public final class Blackout implements LinkImpairment {
    /** An end time meaning the blackout never ends. */
    public static final long FOREVER = Long.MAX_VALUE;

    private final long fromNs;
    private final long untilNs;

    public Blackout(final long fromNs, final long untilNs) {
        if (untilNs < fromNs) {
            throw new IllegalArgumentException("untilNs=" + untilNs + " before fromNs=" + fromNs);
        }
        this.fromNs = fromNs;
        this.untilNs = untilNs;
    }

    /** A blackout from {@code fromNs} that never ends. */
    public static Blackout from(final long fromNs) {
        return new Blackout(fromNs, FOREVER);
    }

    /** Whether the link is dark at {@code nowNs}. */
    public boolean isDark(final long nowNs) {
        return nowNs >= fromNs && nowNs < untilNs;
    }

    @Override
    public void impair(final long nowNs, final PacketFate fate) {
        if (isDark(nowNs)) {
            fate.drop();
        }
    }

    @Override
    public String toString() {
        return "Blackout{fromNs=" + fromNs + ", untilNs=" + (untilNs == FOREVER ? "forever" : untilNs) + '}';
    }
}

package org.mrconf.transport;

/**
 * When a CE report may decrease an AIMD window (clauses 10.1.1, 10.1.2): at most once per smoothed RTT, counted from
 * the last decrease, and a report that may not decrease leaves the window as it is. Its two decisions are
 * {@link SenderSeam}'s.
 */
final class DecreaseSpacing {
    private long lastDecreaseNs;
    private boolean hasDecreased;

    private final SenderSeam seam;

    DecreaseSpacing(final SenderSeam seam) {
        this.seam = seam;
    }

    /** Whether a CE report at {@code nowNs} may decrease the window, given the path's or connection's smoothed RTT. */
    boolean allows(final long nowNs, final long srttNs) {
        return !hasDecreased || nowNs - lastDecreaseNs >= srttNs;
    }

    /** The window decreased at {@code nowNs}. */
    void decreased(final long nowNs) {
        lastDecreaseNs = nowNs;
        hasDecreased = true;
    }

    /**
     * A CE report at {@code nowNs} that did not decrease the window; returns whether it grows the window as an unmarked
     * ACK would (never, when clean).
     */
    boolean heldBack(final long nowNs) {
        if (hasDecreased) {
            lastDecreaseNs = seam.spacingStartAfterHeldReport(lastDecreaseNs, nowNs);
        }
        return seam.heldReportGrows();
    }
}

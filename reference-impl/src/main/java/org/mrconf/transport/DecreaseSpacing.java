package org.mrconf.transport;

import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;

/**
 * When a CE report may decrease an AIMD window (clauses 10.1.1, 10.1.2): at most once per smoothed RTT, counted from
 * the last decrease, and a report that may not decrease leaves the window as it is. Kept apart from {@link AimdWindow}
 * so that the self-validation defects of this rule sit at one seam.
 */
final class DecreaseSpacing {
    private long lastDecreaseNs;
    private boolean hasDecreased;

    /** {@link Defect#DECREASE_SPACED_FROM_LAST_CE_REPORT}: every CE report restarts the spacing, not just a decrease. */
    private final boolean fromLastReport;

    /** {@link Defect#CE_REPORT_GROWS_WINDOW_WITHIN_SRTT}: a report that may not decrease grows the window instead. */
    private final boolean heldReportGrows;

    DecreaseSpacing(final Defects defects) {
        this.fromLastReport = defects.has(Defect.DECREASE_SPACED_FROM_LAST_CE_REPORT);
        this.heldReportGrows = defects.has(Defect.CE_REPORT_GROWS_WINDOW_WITHIN_SRTT);
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
        if (fromLastReport && hasDecreased) {
            lastDecreaseNs = nowNs;
        }
        return heldReportGrows;
    }
}

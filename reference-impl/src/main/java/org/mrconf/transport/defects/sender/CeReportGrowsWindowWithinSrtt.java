package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#CE_REPORT_GROWS_WINDOW_WITHIN_SRTT}: a CE report that may not decrease grows the window instead. */
public final class CeReportGrowsWindowWithinSrtt extends SenderSeam.Forwarding {
    public CeReportGrowsWindowWithinSrtt(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean heldReportGrows() {
        return true;
    }
}

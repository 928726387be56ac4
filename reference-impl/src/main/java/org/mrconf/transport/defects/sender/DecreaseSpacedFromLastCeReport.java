package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#DECREASE_SPACED_FROM_LAST_CE_REPORT}: every CE report restarts the decrease spacing, not just a decrease. */
public final class DecreaseSpacedFromLastCeReport extends SenderSeam.Forwarding {
    public DecreaseSpacedFromLastCeReport(final SenderSeam next) {
        super(next);
    }

    @Override
    public long spacingStartAfterHeldReport(final long lastDecreaseNs, final long nowNs) {
        return nowNs;
    }
}

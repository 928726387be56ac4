package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#WINDOW_GROWTH_EXPONENTIAL}: a window grows by one packet per packet acknowledged. */
public final class WindowGrowthExponential extends SenderSeam.Forwarding {
    public WindowGrowthExponential(final SenderSeam next) {
        super(next);
    }

    @Override
    public double growth(final int newlyAcked, final double window) {
        return newlyAcked;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#CUMULATIVE_OVER_GAP}: answers yes to {@link ReceiveSeam#cumulativeOverGap}. */
public final class CumulativeOverGap extends ReceiveSeam.Forwarding {
    public CumulativeOverGap(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean cumulativeOverGap() {
        return true;
    }
}

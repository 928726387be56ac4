package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#NO_ADDITIVE_INCREASE}: no ACK ever grows a window. */
public final class NoAdditiveIncrease extends SenderSeam.Forwarding {
    public NoAdditiveIncrease(final SenderSeam next) {
        super(next);
    }

    @Override
    public double growth(final int newlyAcked, final double window) {
        return 0;
    }
}

package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#RTT_NOT_SMOOTHED}: every RTT sample sets the estimate afresh, as the first one does. */
public final class RttNotSmoothed extends SenderSeam.Forwarding {
    public RttNotSmoothed(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean sampleStartsEstimate(final boolean hasSample) {
        return true;
    }
}

package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#RTO_NOT_CLAMPED_TO_MAX}: the backed-off RTO doubles past the maximum. */
public final class RtoNotClampedToMax extends SenderSeam.Forwarding {
    public RtoNotClampedToMax(final SenderSeam next) {
        super(next);
    }

    @Override
    public long backedOffRtoNs(final long rtoNs, final int backoffShift, final long maxRtoNs) {
        long rto = rtoNs;
        for (int i = 0; i < backoffShift; i++) {
            rto = rto * 2;
        }
        return rto;
    }
}

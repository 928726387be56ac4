package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#LATE_ACK_RESETS_EXPIRY_COUNT}: answers yes to {@link AckSeam#lateAckResetsExpiryCount}. */
public final class LateAckResetsExpiryCount extends AckSeam.Forwarding {
    public LateAckResetsExpiryCount(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean lateAckResetsExpiryCount() {
        return true;
    }
}

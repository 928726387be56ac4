package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#LATE_ACK_ENDS_BACKOFF}: answers yes to {@link AckSeam#lateAckEndsBackoff}. */
public final class LateAckEndsBackoff extends AckSeam.Forwarding {
    public LateAckEndsBackoff(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean lateAckEndsBackoff() {
        return true;
    }
}

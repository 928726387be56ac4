package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#WAITING_PSN_LOST_ON_GAP}: answers yes to {@link AckSeam#waitingPsnLostOnGap}. */
public final class WaitingPsnLostOnGap extends AckSeam.Forwarding {
    public WaitingPsnLostOnGap(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean waitingPsnLostOnGap() {
        return true;
    }
}

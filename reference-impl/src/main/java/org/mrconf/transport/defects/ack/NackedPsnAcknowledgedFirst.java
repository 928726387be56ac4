package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#NACKED_PSN_ACKNOWLEDGED_FIRST}: answers yes to {@link AckSeam#nackedPsnAcknowledgedFirst}. */
public final class NackedPsnAcknowledgedFirst extends AckSeam.Forwarding {
    public NackedPsnAcknowledgedFirst(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean nackedPsnAcknowledgedFirst() {
        return true;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#LATE_ACK_TAKEN_AS_NEW}: answers yes to {@link AckSeam#lateAckTakenAsNew}. */
public final class LateAckTakenAsNew extends AckSeam.Forwarding {
    public LateAckTakenAsNew(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean lateAckTakenAsNew() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#BOUNDS_CHECKED_PER_PACKET}: answers yes to {@link ReceiveSeam#boundsCheckedPerPacket}. */
public final class BoundsCheckedPerPacket extends ReceiveSeam.Forwarding {
    public BoundsCheckedPerPacket(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean boundsCheckedPerPacket() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#NO_IMMEDIATE_ACK_ON_GAP}: answers yes to {@link ReceiveSeam#noImmediateAckOnGap}. */
public final class NoImmediateAckOnGap extends ReceiveSeam.Forwarding {
    public NoImmediateAckOnGap(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean noImmediateAckOnGap() {
        return true;
    }
}

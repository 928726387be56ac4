package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#REORDER_TIME_FROM_SEND}: counts the reorder time from the PSN's transmission, not from the ACK. */
public final class ReorderTimeFromSend extends SenderSeam.Forwarding {
    public ReorderTimeFromSend(final SenderSeam next) {
        super(next);
    }

    @Override
    public long reorderTimeStartNs(final long gapSeenNs, final long sentNs) {
        return sentNs;
    }
}

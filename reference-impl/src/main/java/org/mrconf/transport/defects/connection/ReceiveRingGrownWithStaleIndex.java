package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#RECEIVE_RING_GROWN_WITH_STALE_INDEX}: a grown receive ring keeps its entries at their old indices. */
public final class ReceiveRingGrownWithStaleIndex extends ConnectionSeam.Forwarding {
    public ReceiveRingGrownWithStaleIndex(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean receiveRingGrownWithStaleIndex() {
        return true;
    }
}

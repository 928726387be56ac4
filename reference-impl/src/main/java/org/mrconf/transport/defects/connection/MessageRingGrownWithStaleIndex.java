package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#MESSAGE_RING_GROWN_WITH_STALE_INDEX}: a grown message ring keeps its entries at their old indices. */
public final class MessageRingGrownWithStaleIndex extends ConnectionSeam.Forwarding {
    public MessageRingGrownWithStaleIndex(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean messageRingGrownWithStaleIndex() {
        return true;
    }
}

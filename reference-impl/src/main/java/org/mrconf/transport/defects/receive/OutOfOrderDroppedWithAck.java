package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#OUT_OF_ORDER_DROPPED_WITH_ACK}: answers yes to {@link ReceiveSeam#outOfOrderDroppedWithAck}. */
public final class OutOfOrderDroppedWithAck extends ReceiveSeam.Forwarding {
    public OutOfOrderDroppedWithAck(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean outOfOrderDroppedWithAck() {
        return true;
    }
}

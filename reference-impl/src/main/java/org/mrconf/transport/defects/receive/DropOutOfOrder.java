package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#DROP_OUT_OF_ORDER}: answers yes to {@link ReceiveSeam#dropOutOfOrder}. */
public final class DropOutOfOrder extends ReceiveSeam.Forwarding {
    public DropOutOfOrder(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean dropOutOfOrder() {
        return true;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#ONLY_FIRST_HOLE_LOST}: answers yes to {@link AckSeam#onlyFirstHoleLost}. */
public final class OnlyFirstHoleLost extends AckSeam.Forwarding {
    public OnlyFirstHoleLost(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean onlyFirstHoleLost() {
        return true;
    }
}

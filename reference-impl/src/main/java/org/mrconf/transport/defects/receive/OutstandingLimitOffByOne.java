package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#OUTSTANDING_LIMIT_OFF_BY_ONE}: answers yes to {@link ReceiveSeam#outstandingLimitOffByOne}. */
public final class OutstandingLimitOffByOne extends ReceiveSeam.Forwarding {
    public OutstandingLimitOffByOne(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean outstandingLimitOffByOne() {
        return true;
    }
}

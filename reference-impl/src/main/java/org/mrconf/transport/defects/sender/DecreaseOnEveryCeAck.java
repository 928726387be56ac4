package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#DECREASE_ON_EVERY_CE_ACK}: every CE report may decrease a window, however recent the last decrease. */
public final class DecreaseOnEveryCeAck extends SenderSeam.Forwarding {
    public DecreaseOnEveryCeAck(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean ceReportDecreases(final boolean spacingAllows) {
        return next.ceReportDecreases(true);
    }
}

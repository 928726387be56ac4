package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#ACK_DELAY_IN_MILLISECONDS}: answers yes to {@link ReceiveSeam#ackDelayInMilliseconds}. */
public final class AckDelayInMilliseconds extends ReceiveSeam.Forwarding {
    public AckDelayInMilliseconds(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ackDelayInMilliseconds() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#NO_ACK_AFTER_NACK}: answers yes to {@link ReceiveSeam#noAckAfterNack}. */
public final class NoAckAfterNack extends ReceiveSeam.Forwarding {
    public NoAckAfterNack(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean noAckAfterNack() {
        return true;
    }
}

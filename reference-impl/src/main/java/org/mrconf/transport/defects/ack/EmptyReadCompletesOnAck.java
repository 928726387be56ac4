package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#EMPTY_READ_COMPLETES_ON_ACK}: answers yes to {@link AckSeam#emptyReadCompletesOnAck}. */
public final class EmptyReadCompletesOnAck extends AckSeam.Forwarding {
    public EmptyReadCompletesOnAck(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean emptyReadCompletesOnAck() {
        return true;
    }
}

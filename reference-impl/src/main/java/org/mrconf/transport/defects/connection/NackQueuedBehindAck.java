package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#NACK_QUEUED_BEHIND_ACK}: the NACK waits until the packet's ACK has gone. */
public final class NackQueuedBehindAck extends ConnectionSeam.Forwarding {
    public NackQueuedBehindAck(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean nackQueuedBehindAck() {
        return true;
    }
}

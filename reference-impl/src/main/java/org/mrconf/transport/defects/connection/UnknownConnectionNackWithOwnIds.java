package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#UNKNOWN_CONNECTION_NACK_WITH_OWN_IDS}: a NACK UNKNOWN_CONNECTION carries its own view of the peer, not the echoed ids. */
public final class UnknownConnectionNackWithOwnIds extends ConnectionSeam.Forwarding {
    public UnknownConnectionNackWithOwnIds(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean unknownConnectionNackEchoesIds() {
        return false;
    }
}

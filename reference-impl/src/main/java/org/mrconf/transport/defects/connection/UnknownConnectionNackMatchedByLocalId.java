package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#UNKNOWN_CONNECTION_NACK_MATCHED_BY_LOCAL_ID}: a NACK UNKNOWN_CONNECTION is matched as any other packet, by local id. */
public final class UnknownConnectionNackMatchedByLocalId extends ConnectionSeam.Forwarding {
    public UnknownConnectionNackMatchedByLocalId(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean unknownConnectionNackMatchedByLocalId() {
        return true;
    }
}

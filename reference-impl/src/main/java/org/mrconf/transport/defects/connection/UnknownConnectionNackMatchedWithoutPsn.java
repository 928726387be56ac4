package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#UNKNOWN_CONNECTION_NACK_MATCHED_WITHOUT_PSN}: a NACK UNKNOWN_CONNECTION matches without an outstanding PSN. */
public final class UnknownConnectionNackMatchedWithoutPsn extends ConnectionSeam.Forwarding {
    public UnknownConnectionNackMatchedWithoutPsn(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean unknownConnectionNackNeedsOutstandingPsn() {
        return false;
    }
}

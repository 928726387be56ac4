package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#WHOLLY_SENT_SOURCE_FAILS_CONNECTION}: invalidating a wholly sent source fails its connection at once. */
public final class WhollySentSourceFailsConnection extends ConnectionSeam.Forwarding {
    public WhollySentSourceFailsConnection(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public int onWhollySentSourceInvalidated() {
        return INVALIDATION_FAILS_CONNECTION;
    }
}

package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#WHOLLY_SENT_SOURCE_COMPLETES_AT_INVALIDATION}: invalidating a wholly sent source completes its work request at once. */
public final class WhollySentSourceCompletesAtInvalidation extends ConnectionSeam.Forwarding {
    public WhollySentSourceCompletesAtInvalidation(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public int onWhollySentSourceInvalidated() {
        final int otherwise = next.onWhollySentSourceInvalidated();
        return otherwise == INVALIDATION_WAITS ? INVALIDATION_COMPLETES : otherwise;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#INVALIDATED_SOURCE_COMPLETES_SUCCESS}: answers yes to {@link AckSeam#invalidatedSourceCompletesSuccess}. */
public final class InvalidatedSourceCompletesSuccess extends AckSeam.Forwarding {
    public InvalidatedSourceCompletesSuccess(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedSourceCompletesSuccess() {
        return true;
    }
}

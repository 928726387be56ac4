package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#FAILED_CONNECTION_STILL_RECEIVES}: answers yes to {@link EndpointSeam#failedConnectionStillReceives}. */
public final class FailedConnectionStillReceives extends EndpointSeam.Forwarding {
    public FailedConnectionStillReceives(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean failedConnectionStillReceives() {
        return true;
    }
}

package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#INVALIDATED_KEY_STILL_VALID}: answers yes to {@link EndpointSeam#invalidatedKeyStillValid}. */
public final class InvalidatedKeyStillValid extends EndpointSeam.Forwarding {
    public InvalidatedKeyStillValid(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedKeyStillValid() {
        return true;
    }
}

package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#MSN_PER_CONNECTION}: answers yes to {@link EndpointSeam#msnPerConnection}. */
public final class MsnPerConnection extends EndpointSeam.Forwarding {
    public MsnPerConnection(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean msnPerConnection() {
        return true;
    }
}

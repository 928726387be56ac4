package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#FOREIGN_SOURCE_KEEPS_ALIVE}: answers yes to {@link EndpointSeam#foreignSourceKeepsAlive}. */
public final class ForeignSourceKeepsAlive extends EndpointSeam.Forwarding {
    public ForeignSourceKeepsAlive(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean foreignSourceKeepsAlive() {
        return true;
    }
}

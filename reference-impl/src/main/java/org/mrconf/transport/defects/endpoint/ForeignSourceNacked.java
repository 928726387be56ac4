package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#FOREIGN_SOURCE_NACKED}: answers yes to {@link EndpointSeam#foreignSourceNacked}. */
public final class ForeignSourceNacked extends EndpointSeam.Forwarding {
    public ForeignSourceNacked(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean foreignSourceNacked() {
        return true;
    }
}

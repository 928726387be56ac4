package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#PROBE_CE_NOT_COUNTED}: answers yes to {@link EndpointSeam#probeCeNotCounted}. */
public final class ProbeCeNotCounted extends EndpointSeam.Forwarding {
    public ProbeCeNotCounted(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean probeCeNotCounted() {
        return true;
    }
}

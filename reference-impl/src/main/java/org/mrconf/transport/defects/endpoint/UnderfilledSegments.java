package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#UNDERFILLED_SEGMENTS}: answers yes to {@link EndpointSeam#underfilledSegments}. */
public final class UnderfilledSegments extends EndpointSeam.Forwarding {
    public UnderfilledSegments(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean underfilledSegments() {
        return true;
    }
}

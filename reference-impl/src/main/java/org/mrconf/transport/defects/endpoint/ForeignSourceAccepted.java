package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#FOREIGN_SOURCE_ACCEPTED}: answers yes to {@link EndpointSeam#foreignSourceAccepted}. */
public final class ForeignSourceAccepted extends EndpointSeam.Forwarding {
    public ForeignSourceAccepted(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean foreignSourceAccepted() {
        return true;
    }
}

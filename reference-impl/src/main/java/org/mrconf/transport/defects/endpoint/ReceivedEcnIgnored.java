package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#RECEIVED_ECN_IGNORED}: answers yes to {@link EndpointSeam#receivedEcnIgnored}. */
public final class ReceivedEcnIgnored extends EndpointSeam.Forwarding {
    public ReceivedEcnIgnored(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean receivedEcnIgnored() {
        return true;
    }
}

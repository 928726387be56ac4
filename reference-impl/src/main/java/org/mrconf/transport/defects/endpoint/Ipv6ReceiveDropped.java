package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#IPV6_RECEIVE_DROPPED}: answers yes to {@link EndpointSeam#ipv6ReceiveDropped}. */
public final class Ipv6ReceiveDropped extends EndpointSeam.Forwarding {
    public Ipv6ReceiveDropped(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean ipv6ReceiveDropped() {
        return true;
    }
}

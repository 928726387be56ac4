package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#MTU_WITHOUT_IP_HEADER}: answers yes to {@link EndpointSeam#mtuWithoutIpHeader}. */
public final class MtuWithoutIpHeader extends EndpointSeam.Forwarding {
    public MtuWithoutIpHeader(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean mtuWithoutIpHeader() {
        return true;
    }
}

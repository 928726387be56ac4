package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#NACK_ON_PATH_ZERO}: every NACK carries path id 0. */
public final class NackOnPathZero extends OutboundSeam.Forwarding {
    public NackOnPathZero(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int nackPathId(final int pathId) {
        return 0;
    }
}

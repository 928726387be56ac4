package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#RETRANSMIT_ON_OTHER_PATH}: a resend carries the next path's id. */
public final class RetransmitOnOtherPath extends OutboundSeam.Forwarding {
    public RetransmitOnOtherPath(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int resendPathId(final int pathId, final int pathCount, final boolean pathHealthy) {
        return (pathId + 1) % pathCount;
    }
}

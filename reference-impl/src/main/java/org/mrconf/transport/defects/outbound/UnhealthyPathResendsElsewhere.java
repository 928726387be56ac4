package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#UNHEALTHY_PATH_RESENDS_ELSEWHERE}: a resend of an unhealthy path carries the next path's id. */
public final class UnhealthyPathResendsElsewhere extends OutboundSeam.Forwarding {
    public UnhealthyPathResendsElsewhere(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int resendPathId(final int pathId, final int pathCount, final boolean pathHealthy) {
        return pathHealthy ? next.resendPathId(pathId, pathCount, pathHealthy) : (pathId + 1) % pathCount;
    }
}

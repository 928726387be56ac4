package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#ACK_REPORTS_ANOTHER_PATH}: an ACK reports the next path's receive window. */
public final class AckReportsAnotherPath extends OutboundSeam.Forwarding {
    public AckReportsAnotherPath(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int ackWindowPathId(final int pathId, final int pathCount) {
        return (pathId + 1) % pathCount;
    }
}

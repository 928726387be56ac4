package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#NACK_RESETS_CE_COUNT}: a NACK clears the path's CE count, which no NACK carries (clause 8.2.2). */
public final class NackResetsCeCount extends OutboundSeam.Forwarding {
    public NackResetsCeCount(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int ceCountAfterNack(final int ceSinceAck) {
        return 0;
    }
}

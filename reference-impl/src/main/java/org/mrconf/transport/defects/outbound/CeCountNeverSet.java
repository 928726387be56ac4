package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#CE_COUNT_NEVER_SET}: every ACK carries CE count 0. */
public final class CeCountNeverSet extends OutboundSeam.Forwarding {
    public CeCountNeverSet(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int ackCeCount(final int counted) {
        return 0;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#STALE_RETRANSMIT_NACK_COUNTED_INVALID}: answers yes to {@link AckSeam#staleRetransmitNackCountedInvalid}. */
public final class StaleRetransmitNackCountedInvalid extends AckSeam.Forwarding {
    public StaleRetransmitNackCountedInvalid(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean staleRetransmitNackCountedInvalid() {
        return true;
    }
}

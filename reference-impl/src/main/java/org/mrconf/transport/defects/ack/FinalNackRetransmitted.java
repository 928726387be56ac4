package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#FINAL_NACK_RETRANSMITTED}: answers yes to {@link AckSeam#finalNackRetransmitted}. */
public final class FinalNackRetransmitted extends AckSeam.Forwarding {
    public FinalNackRetransmitted(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean finalNackRetransmitted() {
        return true;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#STALE_NACK_FAILS_STREAM_HEAD}: answers yes to {@link AckSeam#staleNackFailsStreamHead}. */
public final class StaleNackFailsStreamHead extends AckSeam.Forwarding {
    public StaleNackFailsStreamHead(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean staleNackFailsStreamHead() {
        return true;
    }
}

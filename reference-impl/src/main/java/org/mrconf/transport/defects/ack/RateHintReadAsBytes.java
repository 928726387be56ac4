package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RATE_HINT_READ_AS_BYTES}: answers yes to {@link AckSeam#rateHintReadAsBytes}. */
public final class RateHintReadAsBytes extends AckSeam.Forwarding {
    public RateHintReadAsBytes(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean rateHintReadAsBytes() {
        return true;
    }
}

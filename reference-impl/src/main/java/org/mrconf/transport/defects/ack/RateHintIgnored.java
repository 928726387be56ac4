package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RATE_HINT_IGNORED}: answers yes to {@link AckSeam#rateHintIgnored}. */
public final class RateHintIgnored extends AckSeam.Forwarding {
    public RateHintIgnored(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean rateHintIgnored() {
        return true;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RATE_HINT_FLOOR_IGNORED}: answers yes to {@link AckSeam#rateHintFloorIgnored}. */
public final class RateHintFloorIgnored extends AckSeam.Forwarding {
    public RateHintFloorIgnored(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean rateHintFloorIgnored() {
        return true;
    }
}

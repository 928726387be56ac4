package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#GAP_RESENDS_ON_EVERY_ACK}: answers yes to {@link AckSeam#gapResendsOnEveryAck}. */
public final class GapResendsOnEveryAck extends AckSeam.Forwarding {
    public GapResendsOnEveryAck(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean gapResendsOnEveryAck() {
        return true;
    }
}

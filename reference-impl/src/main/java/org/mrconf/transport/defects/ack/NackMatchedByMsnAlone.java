package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#NACK_MATCHED_BY_MSN_ALONE}: answers yes to {@link AckSeam#nackMatchedByMsnAlone}. */
public final class NackMatchedByMsnAlone extends AckSeam.Forwarding {
    public NackMatchedByMsnAlone(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean nackMatchedByMsnAlone() {
        return true;
    }
}

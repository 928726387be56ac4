package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#RATE_HINT_MISSING_FROM_DUPLICATE_ACKS}: answers yes to {@link ReceiveSeam#rateHintMissingFromDuplicateAcks}. */
public final class RateHintMissingFromDuplicateAcks extends ReceiveSeam.Forwarding {
    public RateHintMissingFromDuplicateAcks(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean rateHintMissingFromDuplicateAcks() {
        return true;
    }
}

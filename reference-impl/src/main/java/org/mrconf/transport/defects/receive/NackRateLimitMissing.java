package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#NACK_RATE_LIMIT_MISSING}: answers yes to {@link ReceiveSeam#nackRateLimitMissing}. */
public final class NackRateLimitMissing extends ReceiveSeam.Forwarding {
    public NackRateLimitMissing(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean nackRateLimitMissing() {
        return true;
    }
}

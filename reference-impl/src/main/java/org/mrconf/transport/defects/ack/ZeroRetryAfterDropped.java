package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#ZERO_RETRY_AFTER_DROPPED}: answers yes to {@link AckSeam#zeroRetryAfterDropped}. */
public final class ZeroRetryAfterDropped extends AckSeam.Forwarding {
    public ZeroRetryAfterDropped(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean zeroRetryAfterDropped() {
        return true;
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RECEIVES_KEPT_AFTER_FAILURE}: answers yes to {@link AckSeam#receivesKeptAfterFailure}. */
public final class ReceivesKeptAfterFailure extends AckSeam.Forwarding {
    public ReceivesKeptAfterFailure(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean receivesKeptAfterFailure() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#INVALIDATION_MISSES_POSTED_RECEIVES}: answers yes to {@link ReceiveSeam#invalidationMissesPostedReceives}. */
public final class InvalidationMissesPostedReceives extends ReceiveSeam.Forwarding {
    public InvalidationMissesPostedReceives(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean invalidationMissesPostedReceives() {
        return true;
    }
}

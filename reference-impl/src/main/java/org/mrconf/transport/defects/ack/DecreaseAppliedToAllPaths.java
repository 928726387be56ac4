package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#DECREASE_APPLIED_TO_ALL_PATHS}: answers yes to {@link AckSeam#decreaseAppliedToAllPaths}. */
public final class DecreaseAppliedToAllPaths extends AckSeam.Forwarding {
    public DecreaseAppliedToAllPaths(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean decreaseAppliedToAllPaths() {
        return true;
    }
}

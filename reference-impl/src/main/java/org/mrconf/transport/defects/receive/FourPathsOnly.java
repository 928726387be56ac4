package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#FOUR_PATHS_ONLY}: answers yes to {@link ReceiveSeam#fourPathsOnly}. */
public final class FourPathsOnly extends ReceiveSeam.Forwarding {
    public FourPathsOnly(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean fourPathsOnly() {
        return true;
    }
}

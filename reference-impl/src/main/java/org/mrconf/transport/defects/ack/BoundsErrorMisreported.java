package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#BOUNDS_ERROR_MISREPORTED}: answers yes to {@link AckSeam#boundsErrorMisreported}. */
public final class BoundsErrorMisreported extends AckSeam.Forwarding {
    public BoundsErrorMisreported(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean boundsErrorMisreported() {
        return true;
    }
}

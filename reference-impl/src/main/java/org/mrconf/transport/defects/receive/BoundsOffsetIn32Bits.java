package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#BOUNDS_OFFSET_IN_32_BITS}: answers yes to {@link ReceiveSeam#boundsOffsetIn32Bits}. */
public final class BoundsOffsetIn32Bits extends ReceiveSeam.Forwarding {
    public BoundsOffsetIn32Bits(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean boundsOffsetIn32Bits() {
        return true;
    }
}

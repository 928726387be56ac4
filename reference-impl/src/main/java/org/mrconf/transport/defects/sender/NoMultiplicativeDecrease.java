package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#NO_MULTIPLICATIVE_DECREASE}: no CE report ever decreases a window. */
public final class NoMultiplicativeDecrease extends SenderSeam.Forwarding {
    public NoMultiplicativeDecrease(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean ceReportDecreases(final boolean spacingAllows) {
        return false;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#HALF_SPACE_PSN_AHEAD}: answers yes to {@link ReceiveSeam#halfSpacePsnAhead}. */
public final class HalfSpacePsnAhead extends ReceiveSeam.Forwarding {
    public HalfSpacePsnAhead(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean halfSpacePsnAhead() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#OUT_OF_WINDOW_PLACED}: answers yes to {@link ReceiveSeam#outOfWindowPlaced}. */
public final class OutOfWindowPlaced extends ReceiveSeam.Forwarding {
    public OutOfWindowPlaced(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean outOfWindowPlaced() {
        return true;
    }
}

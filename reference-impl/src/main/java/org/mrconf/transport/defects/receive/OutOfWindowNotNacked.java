package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#OUT_OF_WINDOW_NOT_NACKED}: answers yes to {@link ReceiveSeam#outOfWindowNotNacked}. */
public final class OutOfWindowNotNacked extends ReceiveSeam.Forwarding {
    public OutOfWindowNotNacked(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean outOfWindowNotNacked() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#ZERO_LENGTH_NOT_COMPLETED}: answers yes to {@link ReceiveSeam#zeroLengthNotCompleted}. */
public final class ZeroLengthNotCompleted extends ReceiveSeam.Forwarding {
    public ZeroLengthNotCompleted(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean zeroLengthNotCompleted() {
        return true;
    }
}

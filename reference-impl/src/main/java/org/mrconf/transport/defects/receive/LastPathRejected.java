package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#LAST_PATH_REJECTED}: answers yes to {@link ReceiveSeam#lastPathRejected}. */
public final class LastPathRejected extends ReceiveSeam.Forwarding {
    public LastPathRejected(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean lastPathRejected() {
        return true;
    }
}

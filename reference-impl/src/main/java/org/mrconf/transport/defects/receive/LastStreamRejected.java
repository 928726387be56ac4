package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#LAST_STREAM_REJECTED}: answers yes to {@link ReceiveSeam#lastStreamRejected}. */
public final class LastStreamRejected extends ReceiveSeam.Forwarding {
    public LastStreamRejected(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean lastStreamRejected() {
        return true;
    }
}

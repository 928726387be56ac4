package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#STALE_NOT_ACKED}: answers yes to {@link ReceiveSeam#staleNotAcked}. */
public final class StaleNotAcked extends ReceiveSeam.Forwarding {
    public StaleNotAcked(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean staleNotAcked() {
        return true;
    }
}

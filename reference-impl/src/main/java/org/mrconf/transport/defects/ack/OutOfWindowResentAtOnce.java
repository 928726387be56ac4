package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#OUT_OF_WINDOW_RESENT_AT_ONCE}: answers yes to {@link AckSeam#outOfWindowResentAtOnce}. */
public final class OutOfWindowResentAtOnce extends AckSeam.Forwarding {
    public OutOfWindowResentAtOnce(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean outOfWindowResentAtOnce() {
        return true;
    }
}

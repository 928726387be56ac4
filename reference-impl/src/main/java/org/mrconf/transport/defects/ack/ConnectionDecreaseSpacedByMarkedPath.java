package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#CONNECTION_DECREASE_SPACED_BY_MARKED_PATH}: answers yes to {@link AckSeam#connectionDecreaseSpacedByMarkedPath}. */
public final class ConnectionDecreaseSpacedByMarkedPath extends AckSeam.Forwarding {
    public ConnectionDecreaseSpacedByMarkedPath(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean connectionDecreaseSpacedByMarkedPath() {
        return true;
    }
}

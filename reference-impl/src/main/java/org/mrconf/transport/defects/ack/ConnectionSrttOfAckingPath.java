package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/**
 * {@link Defect#CONNECTION_SRTT_OF_ACKING_PATH}: answers yes to {@link AckSeam#connectionDecreaseSpacedByMarkedPath}
 * and {@link AckSeam#smoothedRttWithheld}, as the reference does when no path's RTT estimate admits a sample.
 */
public final class ConnectionSrttOfAckingPath extends AckSeam.Forwarding {
    public ConnectionSrttOfAckingPath(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean connectionDecreaseSpacedByMarkedPath() {
        return true;
    }

    @Override
    public boolean smoothedRttWithheld() {
        return true;
    }
}

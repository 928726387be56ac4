package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#FINISHED_ONLY_AT_DELIVERY}: a message counts as finished, for a late NACK, only once its completion is delivered. */
public final class FinishedOnlyAtDelivery extends ConnectionSeam.Forwarding {
    public FinishedOnlyAtDelivery(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean lateNackFailsUndelivered() {
        return true;
    }
}

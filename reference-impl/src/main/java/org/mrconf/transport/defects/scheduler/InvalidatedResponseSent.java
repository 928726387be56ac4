package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#INVALIDATED_RESPONSE_SENT}: answers yes to {@link SchedulerSeam#invalidatedResponseSent}. */
public final class InvalidatedResponseSent extends SchedulerSeam.Forwarding {
    public InvalidatedResponseSent(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedResponseSent() {
        return true;
    }
}

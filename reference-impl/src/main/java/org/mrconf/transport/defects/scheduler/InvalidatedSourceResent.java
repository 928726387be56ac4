package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#INVALIDATED_SOURCE_RESENT}: answers yes to {@link SchedulerSeam#invalidatedSourceResent}. */
public final class InvalidatedSourceResent extends SchedulerSeam.Forwarding {
    public InvalidatedSourceResent(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedSourceResent() {
        return true;
    }
}

package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#INVALIDATED_UNSENT_SKIPPED}: answers yes to {@link SchedulerSeam#invalidatedUnsentSkipped}. */
public final class InvalidatedUnsentSkipped extends SchedulerSeam.Forwarding {
    public InvalidatedUnsentSkipped(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean invalidatedUnsentSkipped() {
        return true;
    }
}

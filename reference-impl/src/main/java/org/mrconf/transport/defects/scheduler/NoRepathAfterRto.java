package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#NO_REPATH_AFTER_RTO}: answers yes to {@link SchedulerSeam#noRepathAfterRto}. */
public final class NoRepathAfterRto extends SchedulerSeam.Forwarding {
    public NoRepathAfterRto(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean noRepathAfterRto() {
        return true;
    }
}

package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#NO_CONNECTION_TIMEOUT}: answers yes to {@link SchedulerSeam#noConnectionTimeout}. */
public final class NoConnectionTimeout extends SchedulerSeam.Forwarding {
    public NoConnectionTimeout(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean noConnectionTimeout() {
        return true;
    }
}

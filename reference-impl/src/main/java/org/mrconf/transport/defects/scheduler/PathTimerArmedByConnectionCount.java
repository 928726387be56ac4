package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#PATH_TIMER_ARMED_BY_CONNECTION_COUNT}: answers yes to {@link SchedulerSeam#pathTimerArmedByConnectionCount}. */
public final class PathTimerArmedByConnectionCount extends SchedulerSeam.Forwarding {
    public PathTimerArmedByConnectionCount(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean pathTimerArmedByConnectionCount() {
        return true;
    }
}

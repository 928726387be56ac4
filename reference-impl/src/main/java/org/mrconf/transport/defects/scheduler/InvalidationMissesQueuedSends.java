package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#INVALIDATION_MISSES_QUEUED_SENDS}: answers yes to {@link SchedulerSeam#invalidationMissesQueuedSends}. */
public final class InvalidationMissesQueuedSends extends SchedulerSeam.Forwarding {
    public InvalidationMissesQueuedSends(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean invalidationMissesQueuedSends() {
        return true;
    }
}

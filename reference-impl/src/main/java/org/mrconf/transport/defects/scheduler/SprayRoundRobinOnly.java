package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#SPRAY_ROUND_ROBIN_ONLY}: answers yes to {@link SchedulerSeam#sprayRoundRobinOnly}. */
public final class SprayRoundRobinOnly extends SchedulerSeam.Forwarding {
    public SprayRoundRobinOnly(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean sprayRoundRobinOnly() {
        return true;
    }
}

package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#SPRAY_FIRST_PATH_ONLY}: answers yes to {@link SchedulerSeam#sprayFirstPathOnly}. */
public final class SprayFirstPathOnly extends SchedulerSeam.Forwarding {
    public SprayFirstPathOnly(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean sprayFirstPathOnly() {
        return true;
    }
}

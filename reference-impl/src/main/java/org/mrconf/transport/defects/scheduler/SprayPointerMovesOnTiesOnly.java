package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#SPRAY_POINTER_MOVES_ON_TIES_ONLY}: answers yes to {@link SchedulerSeam#sprayPointerMovesOnTiesOnly}. */
public final class SprayPointerMovesOnTiesOnly extends SchedulerSeam.Forwarding {
    public SprayPointerMovesOnTiesOnly(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean sprayPointerMovesOnTiesOnly() {
        return true;
    }
}

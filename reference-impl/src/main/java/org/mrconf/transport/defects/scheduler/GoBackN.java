package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#GO_BACK_N}: answers yes to {@link SchedulerSeam#goBackN}. */
public final class GoBackN extends SchedulerSeam.Forwarding {
    public GoBackN(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean goBackN() {
        return true;
    }
}

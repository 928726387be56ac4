package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#TIMEOUT_KEEPS_WINDOW}: answers yes to {@link SchedulerSeam#timeoutKeepsWindow}. */
public final class TimeoutKeepsWindow extends SchedulerSeam.Forwarding {
    public TimeoutKeepsWindow(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean timeoutKeepsWindow() {
        return true;
    }
}

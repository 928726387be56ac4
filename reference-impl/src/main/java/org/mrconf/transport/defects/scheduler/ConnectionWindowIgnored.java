package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#CONNECTION_WINDOW_IGNORED}: answers yes to {@link SchedulerSeam#connectionWindowIgnored}. */
public final class ConnectionWindowIgnored extends SchedulerSeam.Forwarding {
    public ConnectionWindowIgnored(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean connectionWindowIgnored() {
        return true;
    }
}

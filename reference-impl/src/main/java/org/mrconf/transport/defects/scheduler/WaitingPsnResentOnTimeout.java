package org.mrconf.transport.defects.scheduler;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SchedulerSeam;

/** {@link Defect#WAITING_PSN_RESENT_ON_TIMEOUT}: answers yes to {@link SchedulerSeam#waitingPsnResentOnTimeout}. */
public final class WaitingPsnResentOnTimeout extends SchedulerSeam.Forwarding {
    public WaitingPsnResentOnTimeout(final SchedulerSeam next) {
        super(next);
    }

    @Override
    public boolean waitingPsnResentOnTimeout() {
        return true;
    }
}

package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#TEARDOWN_FORGETS_WAITING_READ}: a teardown drops a READ whose request is acknowledged. */
public final class TeardownForgetsWaitingRead extends ConnectionSeam.Forwarding {
    public TeardownForgetsWaitingRead(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean teardownForgets(final boolean unstarted, final boolean waitingRead) {
        return waitingRead || next.teardownForgets(unstarted, waitingRead);
    }
}

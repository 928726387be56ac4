package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#TEARDOWN_FORGETS_UNSTARTED_WORK}: a teardown drops work that has no packet on the wire. */
public final class TeardownForgetsUnstartedWork extends ConnectionSeam.Forwarding {
    public TeardownForgetsUnstartedWork(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean teardownForgets(final boolean unstarted, final boolean waitingRead) {
        return unstarted || next.teardownForgets(unstarted, waitingRead);
    }
}

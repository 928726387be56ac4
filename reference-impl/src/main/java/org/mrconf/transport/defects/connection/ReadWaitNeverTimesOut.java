package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#READ_WAIT_NEVER_TIMES_OUT}: a READ waiting for its data does not keep the connection timeout running. */
public final class ReadWaitNeverTimesOut extends ConnectionSeam.Forwarding {
    public ReadWaitNeverTimesOut(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean readWaitKeepsTimerRunning() {
        return false;
    }
}

package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#MAXIMUM_CONNECTION_WINDOW_EXCEEDED}: declares a maximum connection window and does not keep it. */
public final class MaximumConnectionWindowExceeded extends ConnectionSeam.Forwarding {
    public MaximumConnectionWindowExceeded(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public int maxConnectionWindow(final int declared, final int unbounded) {
        return unbounded;
    }
}

package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#FAIR_SHARE_COUNTS_IDLE_CONNECTIONS}: every connection counts as active for the fair share. */
public final class FairShareCountsIdleConnections extends ConnectionSeam.Forwarding {
    public FairShareCountsIdleConnections(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean activeForFairShare(final long sinceDataNs, final long activeWindowNs, final boolean everReceived) {
        return true;
    }
}

package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#FAIR_SHARE_NEVER_FORGETS}: a connection that ever sent data counts as active for good. */
public final class FairShareNeverForgets extends ConnectionSeam.Forwarding {
    public FairShareNeverForgets(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean activeForFairShare(final long sinceDataNs, final long activeWindowNs, final boolean everReceived) {
        return everReceived || next.activeForFairShare(sinceDataNs, activeWindowNs, everReceived);
    }
}

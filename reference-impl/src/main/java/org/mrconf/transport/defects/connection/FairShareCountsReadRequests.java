package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#FAIR_SHARE_COUNTS_READ_REQUESTS}: an arriving READ_REQUEST counts its connection active. */
public final class FairShareCountsReadRequests extends ConnectionSeam.Forwarding {
    public FairShareCountsReadRequests(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public boolean readRequestCountsForFairShare() {
        return true;
    }
}

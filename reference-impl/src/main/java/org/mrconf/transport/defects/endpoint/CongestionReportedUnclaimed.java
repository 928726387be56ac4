package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#CONGESTION_REPORTED_UNCLAIMED}: answers yes to {@link EndpointSeam#congestionReportedUnclaimed}. */
public final class CongestionReportedUnclaimed extends EndpointSeam.Forwarding {
    public CongestionReportedUnclaimed(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean congestionReportedUnclaimed() {
        return true;
    }
}

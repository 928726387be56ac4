package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#INITIAL_RTO_AT_MINIMUM}: the RTO before any sample is the minimum RTO. */
public final class InitialRtoAtMinimum extends SenderSeam.Forwarding {
    public InitialRtoAtMinimum(final SenderSeam next) {
        super(next);
    }

    @Override
    public long firstRtoNs(final long minRtoNs, final long initialRtoNs) {
        return minRtoNs;
    }
}

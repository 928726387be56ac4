package org.mrconf.transport.defects.connection;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionSeam;

/** {@link Defect#FAIR_SHARE_DISCOUNTS_A_LONE_SENDER}: a lone sender gets the discounted share too. */
public final class FairShareDiscountsALoneSender extends ConnectionSeam.Forwarding {
    public FairShareDiscountsALoneSender(final ConnectionSeam next) {
        super(next);
    }

    @Override
    public double fairShareMbps(final double lineRateMbps, final double utilization, final int active) {
        return lineRateMbps * utilization / Math.max(1, active);
    }
}

package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#HALF_WAY_PSN_TAKEN_AS_OLD}: answers yes to {@link AckSeam#halfWayTakenAsOld}. */
public final class HalfWayPsnTakenAsOld extends AckSeam.Forwarding {
    public HalfWayPsnTakenAsOld(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean halfWayTakenAsOld() {
        return true;
    }
}

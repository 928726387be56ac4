package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#UNSIGNED_PSN_COMPARE}: answers yes to {@link ReceiveSeam#unsignedPsnCompare}. */
public final class UnsignedPsnCompare extends ReceiveSeam.Forwarding {
    public UnsignedPsnCompare(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean unsignedPsnCompare() {
        return true;
    }
}

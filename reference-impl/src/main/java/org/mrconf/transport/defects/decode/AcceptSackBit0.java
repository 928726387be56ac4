package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#ACCEPT_SACK_BIT0}: answers yes to {@link DecodeSeam#acceptSackBit0}. */
public final class AcceptSackBit0 extends DecodeSeam.Forwarding {
    public AcceptSackBit0(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean acceptSackBit0() {
        return true;
    }
}

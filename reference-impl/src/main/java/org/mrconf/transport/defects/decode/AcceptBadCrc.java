package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#ACCEPT_BAD_CRC}: answers yes to {@link DecodeSeam#acceptBadCrc}. */
public final class AcceptBadCrc extends DecodeSeam.Forwarding {
    public AcceptBadCrc(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean acceptBadCrc() {
        return true;
    }
}

package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#LENGTH_FROM_DATAGRAM}: answers yes to {@link DecodeSeam#lengthFromDatagram}. */
public final class LengthFromDatagram extends DecodeSeam.Forwarding {
    public LengthFromDatagram(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean lengthFromDatagram() {
        return true;
    }
}

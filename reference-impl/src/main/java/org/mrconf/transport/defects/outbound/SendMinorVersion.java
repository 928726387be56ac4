package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.DataHeaderFlyweight;

/** {@link Defect#SEND_MINOR_VERSION}: data packets carry version 1.1. */
public final class SendMinorVersion extends OutboundSeam.Forwarding {
    public SendMinorVersion(final OutboundSeam next) {
        super(next);
    }

    @Override
    public void finishDataHeader(final DataHeaderFlyweight header, final int flags) {
        next.finishDataHeader(header, flags);
        header.version(0x11);
    }
}

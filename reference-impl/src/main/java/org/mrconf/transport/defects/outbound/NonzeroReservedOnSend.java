package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.DataHeaderFlyweight;

/** {@link Defect#NONZERO_RESERVED_ON_SEND}: data packets carry nonzero reserved bits. */
public final class NonzeroReservedOnSend extends OutboundSeam.Forwarding {
    public NonzeroReservedOnSend(final OutboundSeam next) {
        super(next);
    }

    @Override
    public void finishDataHeader(final DataHeaderFlyweight header, final int flags) {
        next.finishDataHeader(header, flags);
        header.reserved1(0x5A).flags(flags | 0x8000);
    }
}

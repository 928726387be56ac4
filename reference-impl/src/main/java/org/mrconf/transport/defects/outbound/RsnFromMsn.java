package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#RSN_FROM_MSN}: a SEND carries its MSN as RSN. */
public final class RsnFromMsn extends OutboundSeam.Forwarding {
    public RsnFromMsn(final OutboundSeam next) {
        super(next);
    }

    @Override
    public long sendReceiveSequenceNumber(final long msn, final long rsn) {
        return msn;
    }
}

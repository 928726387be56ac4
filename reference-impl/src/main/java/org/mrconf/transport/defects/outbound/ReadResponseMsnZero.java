package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#READ_RESPONSE_MSN_ZERO}: a READ response carries MSN 0. */
public final class ReadResponseMsnZero extends OutboundSeam.Forwarding {
    public ReadResponseMsnZero(final OutboundSeam next) {
        super(next);
    }

    @Override
    public long readResponseMsn(final long msn) {
        return 0;
    }
}

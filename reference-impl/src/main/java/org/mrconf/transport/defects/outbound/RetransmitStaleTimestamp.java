package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#RETRANSMIT_STALE_TIMESTAMP}: a resend carries the timestamp of its first transmission. */
public final class RetransmitStaleTimestamp extends OutboundSeam.Forwarding {
    public RetransmitStaleTimestamp(final OutboundSeam next) {
        super(next);
    }

    @Override
    public long resendTimestampNs(final long nowNs, final long firstSentNs) {
        return firstSentNs;
    }
}

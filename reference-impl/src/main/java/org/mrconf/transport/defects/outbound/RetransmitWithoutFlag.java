package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.PacketFlags;

/** {@link Defect#RETRANSMIT_WITHOUT_FLAG}: a resend leaves without the RETRANSMISSION flag. */
public final class RetransmitWithoutFlag extends OutboundSeam.Forwarding {
    public RetransmitWithoutFlag(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int dataFlags(final boolean retransmission) {
        return PacketFlags.NONE;
    }
}

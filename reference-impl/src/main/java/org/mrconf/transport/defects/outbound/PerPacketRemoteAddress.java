package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#PER_PACKET_REMOTE_ADDRESS}: a WRITE packet's remote address moves on with its offset. */
public final class PerPacketRemoteAddress extends OutboundSeam.Forwarding {
    public PerPacketRemoteAddress(final OutboundSeam next) {
        super(next);
    }

    @Override
    public long writeRemoteAddress(final long messageRemoteAddress, final long offset) {
        return messageRemoteAddress + offset;
    }
}

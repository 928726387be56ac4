package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#MESSAGE_LENGTH_PER_PACKET}: the message length field carries the packet's payload length. */
public final class MessageLengthPerPacket extends OutboundSeam.Forwarding {
    public MessageLengthPerPacket(final OutboundSeam next) {
        super(next);
    }

    @Override
    public long messageLengthField(final long messageLength, final int payloadLength) {
        return payloadLength;
    }
}

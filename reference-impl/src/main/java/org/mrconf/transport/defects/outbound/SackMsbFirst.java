package org.mrconf.transport.defects.outbound;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.AckFlyweight;

/** {@link Defect#SACK_MSB_FIRST}: an ACK's SACK bitmap bytes leave bit-reversed. */
public final class SackMsbFirst extends OutboundSeam.Forwarding {
    public SackMsbFirst(final OutboundSeam next) {
        super(next);
    }

    @Override
    public void finishAck(final AckFlyweight ack, final ByteBuffer buffer) {
        next.finishAck(ack, buffer);
        for (int i = 0; i < 32; i++) {
            final int index = AckFlyweight.SACK_BITMAP_OFFSET + i;
            buffer.put(index, (byte) (Integer.reverse(buffer.get(index) & 0xFF) >>> 24));
        }
    }
}

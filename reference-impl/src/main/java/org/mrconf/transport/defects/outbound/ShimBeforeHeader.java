package org.mrconf.transport.defects.outbound;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#SHIM_BEFORE_HEADER}: a 4-byte shim precedes each data packet's header. */
public final class ShimBeforeHeader extends OutboundSeam.Forwarding {
    public ShimBeforeHeader(final OutboundSeam next) {
        super(next);
    }

    /** The shim's length; the transport's packet buffer leaves room for it. */
    private static final int SHIM_BYTES = 4;

    @Override
    public int finishDataPacket(final ByteBuffer buffer, final int packetLength) {
        final int length = next.finishDataPacket(buffer, packetLength);
        final byte[] packet = new byte[length];
        buffer.get(0, packet);
        buffer.putInt(0, 0).put(SHIM_BYTES, packet);
        return length + SHIM_BYTES;
    }
}

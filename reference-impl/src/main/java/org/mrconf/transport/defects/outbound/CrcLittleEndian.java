package org.mrconf.transport.defects.outbound;

import java.nio.ByteBuffer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#CRC_LITTLE_ENDIAN}: the ICRC trailer leaves byte-swapped. */
public final class CrcLittleEndian extends OutboundSeam.Forwarding {
    public CrcLittleEndian(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int finishDataPacket(final ByteBuffer buffer, final int packetLength) {
        final int trailer = packetLength - 4;
        for (int i = 0; i < 2; i++) {
            final byte b = buffer.get(trailer + i);
            buffer.put(trailer + i, buffer.get(trailer + 3 - i));
            buffer.put(trailer + 3 - i, b);
        }
        return next.finishDataPacket(buffer, packetLength);
    }
}

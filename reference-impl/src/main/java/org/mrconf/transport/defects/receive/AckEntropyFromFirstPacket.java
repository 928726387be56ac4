package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#ACK_ENTROPY_FROM_FIRST_PACKET}: answers yes to {@link ReceiveSeam#ackEntropyFromFirstPacket}. */
public final class AckEntropyFromFirstPacket extends ReceiveSeam.Forwarding {
    public AckEntropyFromFirstPacket(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ackEntropyFromFirstPacket() {
        return true;
    }
}

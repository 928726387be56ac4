package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#SEND_LENGTH_CHECKED_PER_PACKET}: answers yes to {@link ReceiveSeam#sendLengthCheckedPerPacket}. */
public final class SendLengthCheckedPerPacket extends ReceiveSeam.Forwarding {
    public SendLengthCheckedPerPacket(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean sendLengthCheckedPerPacket() {
        return true;
    }
}

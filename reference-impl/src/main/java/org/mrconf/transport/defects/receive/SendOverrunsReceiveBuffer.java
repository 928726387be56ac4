package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#SEND_OVERRUNS_RECEIVE_BUFFER}: answers yes to {@link ReceiveSeam#sendOverrunsReceiveBuffer}. */
public final class SendOverrunsReceiveBuffer extends ReceiveSeam.Forwarding {
    public SendOverrunsReceiveBuffer(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean sendOverrunsReceiveBuffer() {
        return true;
    }
}

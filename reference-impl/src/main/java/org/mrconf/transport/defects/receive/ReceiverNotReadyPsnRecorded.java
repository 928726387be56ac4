package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#RECEIVER_NOT_READY_PSN_RECORDED}: answers yes to {@link ReceiveSeam#receiverNotReadyPsnRecorded}. */
public final class ReceiverNotReadyPsnRecorded extends ReceiveSeam.Forwarding {
    public ReceiverNotReadyPsnRecorded(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean receiverNotReadyPsnRecorded() {
        return true;
    }
}

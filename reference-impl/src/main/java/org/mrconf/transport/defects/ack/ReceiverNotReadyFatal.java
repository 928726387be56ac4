package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#RECEIVER_NOT_READY_FATAL}: answers yes to {@link AckSeam#receiverNotReadyFatal}. */
public final class ReceiverNotReadyFatal extends AckSeam.Forwarding {
    public ReceiverNotReadyFatal(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean receiverNotReadyFatal() {
        return true;
    }
}

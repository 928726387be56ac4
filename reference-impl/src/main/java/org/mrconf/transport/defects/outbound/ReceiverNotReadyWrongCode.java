package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.NackCode;

/** {@link Defect#RECEIVER_NOT_READY_WRONG_CODE}: a NACK for RECEIVER_NOT_READY carries INVALID_REQUEST. */
public final class ReceiverNotReadyWrongCode extends OutboundSeam.Forwarding {
    public ReceiverNotReadyWrongCode(final OutboundSeam next) {
        super(next);
    }

    @Override
    public NackCode nackCode(final NackCode reason) {
        return reason == NackCode.RECEIVER_NOT_READY ? NackCode.INVALID_REQUEST : next.nackCode(reason);
    }
}

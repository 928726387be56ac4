package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.NackCode;

/** {@link Defect#MESSAGE_TOO_LONG_WRONG_CODE}: a NACK for MESSAGE_TOO_LONG carries BOUNDS. */
public final class MessageTooLongWrongCode extends OutboundSeam.Forwarding {
    public MessageTooLongWrongCode(final OutboundSeam next) {
        super(next);
    }

    @Override
    public NackCode nackCode(final NackCode reason) {
        return reason == NackCode.MESSAGE_TOO_LONG ? NackCode.BOUNDS : next.nackCode(reason);
    }
}

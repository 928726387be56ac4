package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.NackCode;

/** {@link Defect#OUT_OF_WINDOW_WRONG_CODE}: a NACK for PSN_OUT_OF_WINDOW carries INVALID_REQUEST. */
public final class OutOfWindowWrongCode extends OutboundSeam.Forwarding {
    public OutOfWindowWrongCode(final OutboundSeam next) {
        super(next);
    }

    @Override
    public NackCode nackCode(final NackCode reason) {
        return reason == NackCode.PSN_OUT_OF_WINDOW ? NackCode.INVALID_REQUEST : next.nackCode(reason);
    }
}

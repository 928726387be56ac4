package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.NackCode;

/** {@link Defect#INVALID_REQUEST_WRONG_CODE}: a NACK for INVALID_REQUEST carries REMOTE_ACCESS. */
public final class InvalidRequestWrongCode extends OutboundSeam.Forwarding {
    public InvalidRequestWrongCode(final OutboundSeam next) {
        super(next);
    }

    @Override
    public NackCode nackCode(final NackCode reason) {
        return reason == NackCode.INVALID_REQUEST ? NackCode.REMOTE_ACCESS : next.nackCode(reason);
    }
}

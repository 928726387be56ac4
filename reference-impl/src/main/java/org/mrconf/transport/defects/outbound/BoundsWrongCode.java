package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.wire.NackCode;

/** {@link Defect#BOUNDS_WRONG_CODE}: a NACK for BOUNDS carries REMOTE_ACCESS. */
public final class BoundsWrongCode extends OutboundSeam.Forwarding {
    public BoundsWrongCode(final OutboundSeam next) {
        super(next);
    }

    @Override
    public NackCode nackCode(final NackCode reason) {
        return reason == NackCode.BOUNDS ? NackCode.REMOTE_ACCESS : next.nackCode(reason);
    }
}

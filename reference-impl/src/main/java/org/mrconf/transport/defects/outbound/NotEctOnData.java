package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#NOT_ECT_ON_DATA}: data and probes leave Not-ECT. */
public final class NotEctOnData extends OutboundSeam.Forwarding {
    public NotEctOnData(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int dataEcn() {
        return EcnCodepoint.NOT_ECT;
    }

    @Override
    public int probeEcn() {
        return EcnCodepoint.NOT_ECT;
    }
}

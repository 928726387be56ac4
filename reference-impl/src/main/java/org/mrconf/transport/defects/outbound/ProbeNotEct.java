package org.mrconf.transport.defects.outbound;

import org.mrconf.defect.Defect;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.transport.OutboundSeam;

/** {@link Defect#PROBE_NOT_ECT}: probes leave Not-ECT. */
public final class ProbeNotEct extends OutboundSeam.Forwarding {
    public ProbeNotEct(final OutboundSeam next) {
        super(next);
    }

    @Override
    public int probeEcn() {
        return EcnCodepoint.NOT_ECT;
    }
}

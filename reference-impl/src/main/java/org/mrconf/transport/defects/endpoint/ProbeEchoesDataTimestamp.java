package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#PROBE_ECHOES_DATA_TIMESTAMP}: answers yes to {@link EndpointSeam#probeEchoesDataTimestamp}. */
public final class ProbeEchoesDataTimestamp extends EndpointSeam.Forwarding {
    public ProbeEchoesDataTimestamp(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean probeEchoesDataTimestamp() {
        return true;
    }
}

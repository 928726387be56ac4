package org.mrconf.transport.defects.endpoint;

import org.mrconf.defect.Defect;
import org.mrconf.transport.EndpointSeam;

/** {@link Defect#SINK_HANDLE_REUSED}: answers yes to {@link EndpointSeam#sinkHandleReused}. */
public final class SinkHandleReused extends EndpointSeam.Forwarding {
    public SinkHandleReused(final EndpointSeam next) {
        super(next);
    }

    @Override
    public boolean sinkHandleReused() {
        return true;
    }
}

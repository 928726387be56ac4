package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#STREAM_BOUND_TO_PATH}: answers yes to {@link ReceiveSeam#streamBoundToPath}. */
public final class StreamBoundToPath extends ReceiveSeam.Forwarding {
    public StreamBoundToPath(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean streamBoundToPath() {
        return true;
    }
}

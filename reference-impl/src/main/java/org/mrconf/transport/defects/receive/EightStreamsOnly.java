package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#EIGHT_STREAMS_ONLY}: answers yes to {@link ReceiveSeam#eightStreamsOnly}. */
public final class EightStreamsOnly extends ReceiveSeam.Forwarding {
    public EightStreamsOnly(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean eightStreamsOnly() {
        return true;
    }
}

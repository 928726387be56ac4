package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#CE_COUNTED_PER_CONNECTION}: answers yes to {@link ReceiveSeam#ceCountedPerConnection}. */
public final class CeCountedPerConnection extends ReceiveSeam.Forwarding {
    public CeCountedPerConnection(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ceCountedPerConnection() {
        return true;
    }
}

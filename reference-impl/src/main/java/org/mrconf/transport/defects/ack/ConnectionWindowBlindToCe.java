package org.mrconf.transport.defects.ack;

import org.mrconf.defect.Defect;
import org.mrconf.transport.AckSeam;

/** {@link Defect#CONNECTION_WINDOW_BLIND_TO_CE}: answers yes to {@link AckSeam#connectionWindowBlindToCe}. */
public final class ConnectionWindowBlindToCe extends AckSeam.Forwarding {
    public ConnectionWindowBlindToCe(final AckSeam next) {
        super(next);
    }

    @Override
    public boolean connectionWindowBlindToCe() {
        return true;
    }
}

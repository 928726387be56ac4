package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#STALE_PLACED}: answers yes to {@link ReceiveSeam#stalePlaced}. */
public final class StalePlaced extends ReceiveSeam.Forwarding {
    public StalePlaced(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean stalePlaced() {
        return true;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#CE_COUNTED_ONLY_WHEN_PLACED}: answers yes to {@link ReceiveSeam#ceCountedOnlyWhenPlaced}. */
public final class CeCountedOnlyWhenPlaced extends ReceiveSeam.Forwarding {
    public CeCountedOnlyWhenPlaced(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean ceCountedOnlyWhenPlaced() {
        return true;
    }
}

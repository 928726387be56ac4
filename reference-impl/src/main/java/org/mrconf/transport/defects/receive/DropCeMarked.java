package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#DROP_CE_MARKED}: answers yes to {@link ReceiveSeam#dropCeMarked}. */
public final class DropCeMarked extends ReceiveSeam.Forwarding {
    public DropCeMarked(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean dropCeMarked() {
        return true;
    }
}

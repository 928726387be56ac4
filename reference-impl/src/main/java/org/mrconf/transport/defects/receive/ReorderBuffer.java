package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#REORDER_BUFFER}: answers yes to {@link ReceiveSeam#reorderBuffer}. */
public final class ReorderBuffer extends ReceiveSeam.Forwarding {
    public ReorderBuffer(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean reorderBuffer() {
        return true;
    }
}

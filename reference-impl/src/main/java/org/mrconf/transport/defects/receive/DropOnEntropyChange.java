package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#DROP_ON_ENTROPY_CHANGE}: answers yes to {@link ReceiveSeam#dropOnEntropyChange}. */
public final class DropOnEntropyChange extends ReceiveSeam.Forwarding {
    public DropOnEntropyChange(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean dropOnEntropyChange() {
        return true;
    }
}

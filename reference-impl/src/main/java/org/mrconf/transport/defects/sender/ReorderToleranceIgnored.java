package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#REORDER_TOLERANCE_IGNORED}: declares the reorder tolerance and deems every gap lost at once. */
public final class ReorderToleranceIgnored extends SenderSeam.Forwarding {
    public ReorderToleranceIgnored(final SenderSeam next) {
        super(next);
    }

    @Override
    public boolean honoursReorderTolerance() {
        return false;
    }
}

package org.mrconf.transport.defects.receive;

import org.mrconf.defect.Defect;
import org.mrconf.transport.ReceiveSeam;

/** {@link Defect#CONFLICTING_SEGMENT_PLACED}: answers yes to {@link ReceiveSeam#conflictingSegmentPlaced}. */
public final class ConflictingSegmentPlaced extends ReceiveSeam.Forwarding {
    public ConflictingSegmentPlaced(final ReceiveSeam next) {
        super(next);
    }

    @Override
    public boolean conflictingSegmentPlaced() {
        return true;
    }
}

package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#SEGMENT_BOUNDS_UNCHECKED}: answers yes to {@link DecodeSeam#segmentBoundsUnchecked}. */
public final class SegmentBoundsUnchecked extends DecodeSeam.Forwarding {
    public SegmentBoundsUnchecked(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean segmentBoundsUnchecked() {
        return true;
    }
}

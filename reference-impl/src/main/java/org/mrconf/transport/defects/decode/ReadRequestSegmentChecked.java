package org.mrconf.transport.defects.decode;

import org.mrconf.defect.Defect;
import org.mrconf.transport.DecodeSeam;

/** {@link Defect#READ_REQUEST_SEGMENT_CHECKED}: answers yes to {@link DecodeSeam#readRequestSegmentChecked}. */
public final class ReadRequestSegmentChecked extends DecodeSeam.Forwarding {
    public ReadRequestSegmentChecked(final DecodeSeam next) {
        super(next);
    }

    @Override
    public boolean readRequestSegmentChecked() {
        return true;
    }
}

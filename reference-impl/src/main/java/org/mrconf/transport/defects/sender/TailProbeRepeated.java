package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#TAIL_PROBE_REPEATED}: a tail-loss probe re-arms itself every half SRTT. */
public final class TailProbeRepeated extends SenderSeam.Forwarding {
    public TailProbeRepeated(final SenderSeam next) {
        super(next);
    }

    @Override
    public long tailProbeRepeatDelayNs(final long srttNs) {
        return srttNs / 2;
    }
}

package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/** {@link Defect#RTO_CAPPED_AT_511_MS}: the RTO never exceeds 511 ms, the ceiling of a 9-bit millisecond field. */
public final class RtoCappedAt511Ms extends SenderSeam.Forwarding {
    public RtoCappedAt511Ms(final SenderSeam next) {
        super(next);
    }

    /** The ceiling of a 9-bit millisecond timer field. */
    private static final long NINE_BIT_MS_CEILING_NS = 511_000_000L;

    @Override
    public long armedRtoNs(final long rtoNs) {
        return Math.min(next.armedRtoNs(rtoNs), NINE_BIT_MS_CEILING_NS);
    }
}

package org.mrconf.transport.defects.sender;

import org.mrconf.defect.Defect;
import org.mrconf.transport.SenderSeam;

/**
 * {@link Defect#REORDER_TIME_NEVER_PASSES}: the declared reorder time starts a century after the gap shows, so only
 * the declared count of later PSNs, or the retransmission timer, ever deems a held gap lost.
 */
public final class ReorderTimeNeverPasses extends SenderSeam.Forwarding {
    /** About a century in nanoseconds: far past any run, far below the wrap of a signed 64-bit difference. */
    private static final long CENTURY_NS = 100L * 365 * 24 * 3600 * 1_000_000_000L;

    public ReorderTimeNeverPasses(final SenderSeam next) {
        super(next);
    }

    @Override
    public long reorderTimeStartNs(final long gapSeenNs, final long sentNs) {
        return next.reorderTimeStartNs(gapSeenNs, sentNs) + CENTURY_NS;
    }
}

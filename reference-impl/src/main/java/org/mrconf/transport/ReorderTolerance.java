package org.mrconf.transport;

/**
 * The sender's declared reorder tolerance (clause 6.3.3): a PSN an ACK shows missing, with later PSNs received, is
 * deemed lost once the declared number of PSNs after it are reported received, or once the declared time has passed
 * since the first ACK that showed the gap, whichever comes first. The time is at most a quarter of the path's smoothed
 * RTT, so the bound holds on every path. A declared 0 (or a single packet, which any such ACK reports) holds at once:
 * without a tolerance every gap is a loss at once (clause 6.3.1).
 */
final class ReorderTolerance {
    /** No gap seen for a slot, no deadline armed for a path. */
    static final long NO_GAP = Long.MIN_VALUE;

    private final int packets;
    private final long timeNs;
    private final boolean holdsGaps;
    /** When a gap's declared time starts. */
    private final SenderSeam seam;

    ReorderTolerance(final EndpointConfig config) {
        this.packets = config.reorderTolerancePackets();
        this.timeNs = config.reorderToleranceNs();
        this.seam = config.seams().sender();
        this.holdsGaps = config.reorderToleranceHoldsGaps() && seam.honoursReorderTolerance();
    }

    /** Whether a gap may wait at all: both declared conditions are more than an ACK showing a gap already meets. */
    boolean active() {
        return holdsGaps;
    }

    /**
     * Whether the PSN of {@code slot}, which an ACK at {@code nowNs} shows missing while {@code reportedAfter} later PSNs
     * of the path are reported received, is lost now; if not, remembers when its gap was first seen and arms the
     * path's deadline for it.
     */
    boolean lostNow(final PathSender path, final int slot, final int reportedAfter, final long nowNs) {
        if (!active() || reportedAfter >= packets) {
            return true;
        }
        if (path.slotGapSeenNs[slot] == NO_GAP) {
            path.slotGapSeenNs[slot] = nowNs;
        }
        final long dueNs = since(path, slot) + waitNs(path);
        if (nowNs - dueNs >= 0) {
            return true;
        }
        armNoLaterThan(path, dueNs);
        return false;
    }

    /** The path's deadline has come: every PSN whose declared time has passed is lost; the deadline moves on. */
    void onDeadline(final PathSender path, final long nowNs) {
        path.reorderDeadlineNs = NO_GAP;
        for (long psn = path.oldestUnackedPsn; psn != path.nextPsn; psn = Serial.add(psn, 1)) {
            final int slot = PathSender.slot(psn);
            if (path.slotState[slot] != PathSender.IN_FLIGHT || path.slotGapSeenNs[slot] == NO_GAP) {
                continue;
            }
            final long dueNs = since(path, slot) + waitNs(path);
            if (nowNs - dueNs >= 0) {
                path.slotGapSeenNs[slot] = NO_GAP;
                path.markLost(psn);
            } else {
                armNoLaterThan(path, dueNs);
            }
        }
    }

    /** Moves the path's deadline to {@code dueNs} if none is armed or the armed one is later. */
    private static void armNoLaterThan(final PathSender path, final long dueNs) {
        if (path.reorderDeadlineNs == NO_GAP || dueNs - path.reorderDeadlineNs < 0) {
            path.reorderDeadlineNs = dueNs;
        }
    }

    private long since(final PathSender path, final int slot) {
        return seam.reorderTimeStartNs(path.slotGapSeenNs[slot], path.slotSentNs[slot]);
    }

    /** The declared time, or a quarter of the path's smoothed RTT if that is shorter. */
    private long waitNs(final PathSender path) {
        final long quarter = path.rtt.srttNs() / 4;
        return quarter > 0 ? Math.min(timeNs, quarter) : timeNs;
    }
}

package org.mrconf.transport;

import java.util.List;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.wire.Opcode;

/**
 * The receiver's fair-share rate hint (spec clauses 8.2.3, 8.2.4). Once per interval it counts the
 * connections that sent data and splits the line rate between them; while arriving data carries CE
 * marks (its own downlink queue is building) it scales the shares down, multiplicatively with the
 * marked fraction, and restores them additively once the marks stop. Every sender gets the same
 * share, so the hint is fair by construction and drains the queue that an incast burst built.
 */
final class RateHint {
    /** Smallest share of the fair rate the hint falls to while marks persist. */
    private static final double MIN_SCALE = 0.25;
    /** How much of the fair rate returns per interval without marks. */
    private static final double RECOVERY_PER_INTERVAL = 0.05;

    /** Unmarked intervals that restore the scale from its floor to 1, and so the most one count needs to add. */
    private static final long INTERVALS_TO_RESTORE = 20;

    private final long lineRateMbps;
    private final double utilization;
    private final long intervalNs;
    private final long activeWindowNs;
    private final List<Connection> connections;
    private long countedAtNs = Long.MIN_VALUE;
    private long hintMbps;
    private double scale = 1;
    private long packets;
    private long marked;

    /** Who counts towards the fair share, and how large it is. */
    private final ConnectionSeam seam;

    RateHint(final EndpointConfig config, final List<Connection> connections) {
        this.lineRateMbps = Math.max(1, config.lineRateBitsPerSecond() / 1_000_000);
        this.utilization = config.rateHintUtilization();
        this.intervalNs = config.rateHintIntervalNs();
        this.activeWindowNs = Math.max(intervalNs, config.rateHintActiveWindowNs());
        this.connections = connections;
        this.hintMbps = lineRateMbps;
        this.seam = config.seams().connection();
    }

    /**
     * Counts one arriving packet with a data header: a data packet makes its connection active and counts towards the
     * marked fraction; a READ_REQUEST does neither (clause 8.2.4: its data loads the other direction, where the
     * requester counts the READ_RESPONSEs).
     */
    void onArrival(final Connection connection, final Opcode opcode, final int ecn, final long nowNs) {
        if (opcode == Opcode.READ_REQUEST && !seam.readRequestCountsForFairShare()) {
            return;
        }
        connection.lastDataReceivedNs = nowNs;
        onData(ecn);
    }

    /** Counts one arriving data packet and whether a queue on its way marked it. */
    void onData(final int ecn) {
        packets++;
        if (ecn == EcnCodepoint.CE) {
            marked++;
        }
    }

    /** The hint to put in an ACK sent now, in Mbit/s. */
    long currentMbps(final long nowNs) {
        if (countedAtNs == Long.MIN_VALUE || nowNs - countedAtNs >= intervalNs) {
            recount(nowNs);
        }
        return hintMbps;
    }

    private void recount(final long nowNs) {
        int active = 0;
        for (int i = 0; i < connections.size(); i++) {
            final long lastDataNs = connections.get(i).lastDataReceivedNs;
            if (seam.activeForFairShare(nowNs - lastDataNs, activeWindowNs, lastDataNs != Connection.NO_DATA_YET)) {
                active++;
            }
        }
        if (marked > 0) {
            scale = Math.max(MIN_SCALE, scale * (1 - 0.5 * marked / (double) packets));
        } else {
            // Every interval without marks restores 0.05 (clause 8.2.4's example), the intervals nobody asked for a
            // hint in too: the hint is counted only when an ACK needs it, and a receiver idle for a second has had
            // a hundred thousand unmarked intervals, not one.
            final long intervals = countedAtNs == Long.MIN_VALUE
                    ? 1
                    : Math.min(INTERVALS_TO_RESTORE, Math.max(1, (nowNs - countedAtNs) / intervalNs));
            scale = Math.min(1, scale + RECOVERY_PER_INTERVAL * intervals);
        }
        packets = 0;
        marked = 0;
        // A lone sender may use the whole link; shared, a little headroom drains what transients build.
        final double share = seam.fairShareMbps(lineRateMbps, utilization, active);
        hintMbps = Math.max(1, (long) (share * scale));
        countedAtNs = nowNs;
    }
}

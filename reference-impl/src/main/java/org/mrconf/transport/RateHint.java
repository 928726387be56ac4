package org.mrconf.transport;

import java.util.List;

/**
 * The receiver's fair-share rate hint (spec clauses 8.2.3, 8.2.4): the line rate divided by the number
 * of connections that sent data in the last interval, recounted at most once per interval.
 */
final class RateHint {
    private final long lineRateMbps;
    private final long intervalNs;
    private final List<Connection> connections;
    private long countedAtNs = Long.MIN_VALUE;
    private long hintMbps;

    RateHint(final EndpointConfig config, final List<Connection> connections) {
        this.lineRateMbps = Math.max(1, config.lineRateBitsPerSecond() / 1_000_000);
        this.intervalNs = config.rateHintIntervalNs();
        this.connections = connections;
        this.hintMbps = lineRateMbps;
    }

    /** The hint to put in an ACK sent now, in Mbit/s. */
    long currentMbps(final long nowNs) {
        if (countedAtNs == Long.MIN_VALUE || nowNs - countedAtNs >= intervalNs) {
            int active = 0;
            for (int i = 0; i < connections.size(); i++) {
                if (nowNs - connections.get(i).lastDataReceivedNs <= intervalNs) {
                    active++;
                }
            }
            hintMbps = Math.max(1, lineRateMbps / Math.max(1, active));
            countedAtNs = nowNs;
        }
        return hintMbps;
    }
}

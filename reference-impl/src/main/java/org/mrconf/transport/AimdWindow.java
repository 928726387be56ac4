package org.mrconf.transport;

/**
 * An ECN-driven AIMD congestion window in packets (spec clauses 10.1.1 to 10.1.3): one per path and one
 * per connection. It decreases at most once per smoothed RTT, so one congestion event that marks many
 * packets counts once.
 */
final class AimdWindow {
    private final double minimum;
    private final double maximum;
    private final double decreaseFactor;
    private double window;
    private final DecreaseSpacing spacing;

    /** The decisions the spec fixes about decrease and growth. */
    private final SenderSeam seam;

    AimdWindow(final double initial, final double maximum, final double decreaseFactor) {
        this(initial, maximum, decreaseFactor, SenderSeam.CORRECT);
    }

    AimdWindow(final double initial, final double maximum, final double decreaseFactor, final SenderSeam seam) {
        this.seam = seam;
        this.spacing = new DecreaseSpacing(seam);
        this.minimum = 1;
        this.maximum = maximum;
        this.decreaseFactor = decreaseFactor;
        this.window = Math.max(minimum, Math.min(maximum, initial));
    }

    /**
     * The most a window whose first value is {@code first} may grow to: {@code withCongestion} for an endpoint that
     * offers the congestion profile, else the first value itself (clause 10.1.6: the windows of a sender without the
     * congestion profile do not grow past their declared values).
     */
    static int largest(final EndpointConfig config, final SenderSeam seam, final int first, final int withCongestion) {
        return seam.largestWindow(first, withCongestion, config.offers(Feature.CONGESTION));
    }

    /** The window rounded down to whole packets, at least 1. */
    int packets() {
        return (int) window;
    }

    double window() {
        return window;
    }

    /**
     * Reacts to one ACK.
     *
     * @param newlyAcked packets this ACK acknowledged for the first time
     * @param ceCount    CE-marked packets it reports
     * @param floor      the least a decrease may leave, in packets (clause 10.1.5); 0 for none
     */
    void onAck(final int newlyAcked, final int ceCount, final long nowNs, final long srttNs, final double floor) {
        if (ceCount > 0) {
            if (seam.ceReportDecreases(spacing.allows(nowNs, srttNs))) {
                window = Math.max(minimum, window * decreaseFactor);
                spacing.decreased(nowNs);
            } else if (spacing.heldBack(nowNs) && newlyAcked > 0) {
                grow(newlyAcked);
            }
        } else if (newlyAcked > 0) {
            grow(newlyAcked);
        }
        // The rate hint's window is the least the window may be, whatever the marks (clause 10.1.5).
        window = Math.max(window, Math.min(floor, maximum));
    }

    private void grow(final int newlyAcked) {
        window = Math.min(maximum, window + seam.growth(newlyAcked, window));
    }

    /** A retransmission timeout: back to one packet (clause 10.1.3). */
    void onTimeout() {
        window = minimum;
    }
}

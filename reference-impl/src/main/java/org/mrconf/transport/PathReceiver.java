package org.mrconf.transport;

/** The receive side of one path: its PSN window and what its next ACK must say (spec section 8). */
final class PathReceiver {
    final int pathId;
    final ReceiveWindow window;
    /** CE-marked packets since the last ACK of the path (clause 8.2.2). */
    int ceSinceAck;
    /** Transmit timestamp of the most recent packet of the path, to echo (clause 8.2.1). */
    long lastTimestamp;
    /** In-order packets not yet acknowledged. */
    int unacknowledged;
    /** When the coalesced ACK is due; meaningful while {@link #unacknowledged} > 0. */
    long ackDeadlineNs;
    /** UDP source port of the latest packet of the path; ACKs go back with it (clause 8.1.6). 0: none yet. */
    int lastEntropy;
    /** The last final NACK of the path, for the rate limit of clause 9.1.5. */
    int lastFinalNackCode = -1;
    /** Whether {@code lastTimestamp} holds a packet's timestamp yet (for defect TIMESTAMP_ECHO_STUCK). */
    boolean hasTimestamp;

    int lastFinalNackStream;
    long lastFinalNackMsn;
    long lastFinalNackNs;

    PathReceiver(final int pathId, final long initialPsn) {
        this.pathId = pathId;
        this.window = new ReceiveWindow(initialPsn);
    }

    /**
     * Notes the UDP source port of a packet of the path that passed the checks: its ACKs and NACKs go back from it
     * (clause 8.1.6). With {@code keepFirst} (defect ACK_ENTROPY_FROM_FIRST_PACKET) only the path's first one counts.
     */
    void heardFrom(final int sourcePort, final boolean keepFirst) {
        if (!keepFirst || lastEntropy == 0) {
            lastEntropy = sourcePort;
        }
    }
}

package org.mrconf.transport;

/**
 * The send side of one path (spec sections 6 and 10): its PSN space, the up to 256 outstanding PSNs,
 * its RTT estimate and timer, its congestion window, its entropy and its health. Outstanding PSNs live
 * in preallocated arrays indexed by {@code psn & 255}, which the 256-PSN window makes collision free.
 */
final class PathSender {
    static final int WINDOW = ReceiveWindow.SIZE;

    static final byte FREE = 0;
    static final byte IN_FLIGHT = 1;
    static final byte ACKED = 2;
    /** Deemed lost; waits for its retransmission. */
    static final byte LOST = 3;
    /**
     * Rejected with RECEIVER_NOT_READY, waiting until {@link #slotRetryAtNs}; or, with {@link #slotAwaitsWindow},
     * rejected with PSN_OUT_OF_WINDOW, waiting for the receive window to move (clause 9.1.11).
     */
    static final byte WAITING = 4;

    final int pathId;
    final RttEstimator rtt;
    final AimdWindow congestionWindow;

    /**
     * The state of every slot; the other slot arrays are read only for slots that are not FREE, so they
     * are allocated at the path's first packet: a connection with 256 idle paths costs little.
     */
    final byte[] slotState = new byte[WINDOW];

    SendMessage[] slotMessage;
    long[] slotOffset;
    int[] slotLength;
    long[] slotSentNs;
    /** The PSN each slot last carried, so that {@link #carriedBy} can tell a slot's current PSN from an older one. */
    long[] slotPsn;

    long[] slotRetryAtNs;
    /**
     * When an ACK first showed the slot's PSN missing with later PSNs received, while a declared reorder tolerance
     * holds it back ({@link ReorderTolerance}); {@link ReorderTolerance#NO_GAP} otherwise.
     */
    long[] slotGapSeenNs;
    /** When the earliest PSN held back by the reorder tolerance is due ({@link ReorderTolerance#NO_GAP}: none). */
    long reorderDeadlineNs = ReorderTolerance.NO_GAP;

    boolean[] slotRetransmitted;
    /** For a WAITING slot: whether it waits for an advancing ACK or the timer, not for a retry-after. */
    boolean[] slotAwaitsWindow;

    /** PSN the next new packet gets. */
    long nextPsn;
    /** Oldest PSN not yet acknowledged; equals {@link #nextPsn} when nothing is outstanding. */
    long oldestUnackedPsn;
    /** The furthest cumulative PSN an ACK of the path has reported, to tell an ACK that advances it (clause 6.6.3). */
    long highestCumulativePsn;
    /** PSNs sent and not yet acknowledged (in flight, lost or waiting). */
    int unacknowledged;
    /** PSNs in state LOST or WAITING, so the sender knows without a scan that there is nothing to resend. */
    int awaitingResend;

    int entropy;
    boolean healthy = true;
    int consecutiveTimeouts;
    /** When the retransmission timer fires; meaningful while {@link #unacknowledged} > 0. */
    long rtoDeadlineNs;
    /** When an unhealthy path with nothing outstanding is probed next (clause 6.7.2). */
    long probeDeadlineNs;
    /** Whether a tail-loss probe is due at {@link #tailProbeDeadlineNs} ({@link TailLossProbe}). */
    boolean tailProbeArmed;

    long tailProbeDeadlineNs;
    /** Whether a tail-loss probe went out and its ACK has not come back; then its time, as sent and as on the wire. */
    boolean tailProbeOutstanding;

    long tailProbeSentNs;
    long tailProbeTimestamp;
    /** A tail-loss probe found PSNs lost: give the path new entropy before resending them (clause 6.6.4). */
    boolean repathBeforeResend;

    /** The PSNs this path may have outstanding: {@link #WINDOW}. */
    private final int sendWindow;

    PathSender(final int pathId, final long initialPsn, final int entropy, final EndpointConfig config) {
        this.pathId = pathId;
        final SenderSeam seam = config.seams().sender();
        this.nextPsn = seam.initialPsn(initialPsn & Serial.MASK);
        this.sendWindow = seam.sendWindow(WINDOW);
        this.oldestUnackedPsn = this.nextPsn;
        this.highestCumulativePsn = this.nextPsn;
        this.entropy = entropy;
        this.rtt = new RttEstimator(config.minRtoNs(), config.initialRtoNs(), config.maxRtoNs(), seam);
        // Without the congestion profile the path window never grows past the first one (clause 10.1.6).
        this.congestionWindow = new AimdWindow(
                config.initialPathWindow(),
                AimdWindow.largest(config, seam, config.initialPathWindow(), WINDOW),
                config.decreaseFactor(),
                seam);
    }

    static int slot(final long psn) {
        return (int) (psn & (WINDOW - 1));
    }

    /** PSNs between the oldest unacknowledged and the next new one (clause 6.1.3 bounds this by 256). */
    int outstandingSpan() {
        return (int) Serial.distance(oldestUnackedPsn, nextPsn);
    }

    /** How many new PSNs this path may take now: window space and congestion window both. */
    int freeWindow() {
        if (!healthy) {
            return 0;
        }
        return Math.min(sendWindow - outstandingSpan(), congestionWindow.packets() - unacknowledged);
    }

    /** Whether {@code psn} has been sent and is not yet behind the oldest unacknowledged PSN. */
    boolean isOutstanding(final long psn) {
        return Serial.distance(oldestUnackedPsn, psn) < Serial.distance(oldestUnackedPsn, nextPsn);
    }

    /**
     * The message {@code psn} carried, when it is one of the last {@link #WINDOW} PSNs sent on the path (clause
     * 9.1.7: a NACK is matched by its PSN); null for a PSN never sent or sent longer ago.
     */
    SendMessage carriedBy(final long psn) {
        if (slotMessage == null || !Serial.before(psn, nextPsn) || Serial.distance(psn, nextPsn) > WINDOW) {
            return null;
        }
        final int slot = slot(psn);
        return slotPsn[slot] == psn ? slotMessage[slot] : null;
    }

    /** Records a new packet in its slot and returns its PSN. */
    long assign(final SendMessage message, final long offset, final int length, final long nowNs) {
        if (slotMessage == null) {
            slotMessage = new SendMessage[WINDOW];
            slotOffset = new long[WINDOW];
            slotLength = new int[WINDOW];
            slotSentNs = new long[WINDOW];
            slotPsn = new long[WINDOW];
            slotRetryAtNs = new long[WINDOW];
            slotGapSeenNs = new long[WINDOW];
            slotRetransmitted = new boolean[WINDOW];
            slotAwaitsWindow = new boolean[WINDOW];
        }
        final long psn = nextPsn;
        final int slot = slot(psn);
        slotMessage[slot] = message;
        slotPsn[slot] = psn;
        slotOffset[slot] = offset;
        slotLength[slot] = length;
        slotSentNs[slot] = nowNs;
        slotRetransmitted[slot] = false;
        slotGapSeenNs[slot] = ReorderTolerance.NO_GAP;
        slotState[slot] = IN_FLIGHT;
        nextPsn = Serial.add(nextPsn, 1);
        unacknowledged++;
        return psn;
    }

    /** Marks a PSN acknowledged; returns whether it was not already. */
    boolean acknowledge(final long psn) {
        final int slot = slot(psn);
        final byte state = slotState[slot];
        if (state == ACKED || state == FREE) {
            return false;
        }
        if (state == LOST || state == WAITING) {
            awaitingResend--;
        }
        slotState[slot] = ACKED;
        unacknowledged--;
        return true;
    }

    /** Marks an in-flight PSN for retransmission. */
    void markLost(final long psn) {
        final int slot = slot(psn);
        if (slotState[slot] == IN_FLIGHT) {
            slotState[slot] = LOST;
            awaitingResend++;
        }
    }

    /** Parks a PSN until the receiver is ready (NACK RECEIVER_NOT_READY). */
    void markWaiting(final long psn, final long retryAtNs) {
        final int slot = slot(psn);
        if (slotState[slot] == IN_FLIGHT) {
            awaitingResend++;
        }
        if (slotState[slot] == IN_FLIGHT || slotState[slot] == LOST) {
            slotState[slot] = WAITING;
            slotRetryAtNs[slot] = retryAtNs;
            slotAwaitsWindow[slot] = false;
        }
    }

    /**
     * Parks a PSN the receiver NACKed PSN_OUT_OF_WINDOW until an ACK of the path advances its cumulative PSN
     * ({@link #windowAdvanced}) or the path's timer expires ({@link #releaseOnTimeout}), clause 9.1.11.
     */
    void markWaitingForWindow(final long psn) {
        markWaiting(psn, 0);
        final int slot = slot(psn);
        if (slotState[slot] == WAITING) {
            slotAwaitsWindow[slot] = true;
        }
    }

    /** Whether the slot waits for the window rather than for a retry-after. */
    boolean awaitsWindow(final int slot) {
        return slotState[slot] == WAITING && slotAwaitsWindow[slot];
    }

    /** The receive window moved: every PSN waiting for it is due now. */
    void windowAdvanced(final long nowNs) {
        for (long psn = oldestUnackedPsn; psn != nextPsn; psn = Serial.add(psn, 1)) {
            final int slot = slot(psn);
            if (awaitsWindow(slot)) {
                slotAwaitsWindow[slot] = false;
                slotRetryAtNs[slot] = nowNs;
            }
        }
    }

    /** The path's timer expired: a PSN waiting for the window is lost now, and resent with the others. */
    void releaseOnTimeout() {
        for (long psn = oldestUnackedPsn; psn != nextPsn; psn = Serial.add(psn, 1)) {
            final int slot = slot(psn);
            if (awaitsWindow(slot)) {
                slotAwaitsWindow[slot] = false;
                slotState[slot] = LOST; // still counted in awaitingResend
            }
        }
    }

    /** Frees the slots of acknowledged PSNs at the front of the window. */
    void advanceOldestUnacked() {
        while (oldestUnackedPsn != nextPsn && slotState[slot(oldestUnackedPsn)] == ACKED) {
            final int slot = slot(oldestUnackedPsn);
            // The message stays in the slot until the slot is reused, so that a late NACK of this PSN can still be
            // matched to the message it carried (clause 9.1.7, carriedBy); at most WINDOW messages per path are kept.
            slotState[slot] = FREE;
            oldestUnackedPsn = Serial.add(oldestUnackedPsn, 1);
        }
    }
}

package org.mrconf.transport;

/**
 * The decisions a connection takes about its own state and its peers ({@link Connection}, {@link RateHint},
 * {@link UnknownConnections}, {@link Refusals}, {@link ForgottenWork}, {@link EagerInvalidation},
 * {@link LateNackAtDelivery}, {@link PeerMessageLimit}), each answered by {@link #CORRECT} as the spec says. The
 * reference's self-validation defects (package {@code org.mrconf.transport.defects.connection}) replace one answer
 * each and forward the rest; nothing here allocates.
 */
public interface ConnectionSeam {
    /** {@link #onWhollySentSourceInvalidated}: nothing happens at invalidation. */
    int INVALIDATION_WAITS = 0;

    /** {@link #onWhollySentSourceInvalidated}: the connection fails. */
    int INVALIDATION_FAILS_CONNECTION = 1;

    /** {@link #onWhollySentSourceInvalidated}: the work request completes at once. */
    int INVALIDATION_COMPLETES = 2;

    /** The entropy of path {@code pathId}: the connection's base plus the path id, one source port per path (clause 3.1.6). */
    default int pathEntropy(final int entropyBase, final int pathId) {
        return entropyBase + pathId;
    }

    /** The first PSN a receive path expects: the one the connection declared (clause 6.1.1). */
    default long initialReceivePsn(final long declaredPsn) {
        return declaredPsn;
    }

    /** Whether a READ waiting for its data keeps the connection timeout running: yes (clause 11.1.5). */
    default boolean readWaitKeepsTimerRunning() {
        return true;
    }

    /** The most the connection window may grow to: the declared maximum (clause 10.1.4). */
    default int maxConnectionWindow(final int declared, final int unbounded) {
        return declared;
    }

    /** Whether a grown receive ring re-indexes its entries: yes, false only for a defect (clause 7.5.2). */
    default boolean receiveRingGrownWithStaleIndex() {
        return false;
    }

    /** Whether a grown message ring re-indexes its entries: yes, false only for a defect (clause 7.5.2). */
    default boolean messageRingGrownWithStaleIndex() {
        return false;
    }

    /** Whether an arriving READ_REQUEST counts towards the fair share of the rate hint: no, its data loads the other direction (clause 8.2.4). */
    default boolean readRequestCountsForFairShare() {
        return false;
    }

    /** Whether a connection counts as active for the fair share: data within the active window (clause 8.2.4). */
    default boolean activeForFairShare(final long sinceDataNs, final long activeWindowNs, final boolean everReceived) {
        return sinceDataNs <= activeWindowNs;
    }

    /** The fair share of the line for {@code active} active connections: all of it for a lone sender (clause 8.2.4). */
    default double fairShareMbps(final double lineRateMbps, final double utilization, final int active) {
        return active <= 1 ? lineRateMbps : lineRateMbps * utilization / Math.max(1, active);
    }

    /** The least time between two NACKs UNKNOWN_CONNECTION to one address: {@code intervalNs} (clause 11.2.3). */
    default long unknownConnectionAnswerIntervalNs(final long intervalNs) {
        return intervalNs;
    }

    /** Whether a NACK UNKNOWN_CONNECTION echoes the rejected packet's ids: yes (clause 11.2.3). */
    default boolean unknownConnectionNackEchoesIds() {
        return true;
    }

    /** Whether a NACK UNKNOWN_CONNECTION is matched by the local connection id it carries: no, by the peer id it echoes (clause 9.1.10). */
    default boolean unknownConnectionNackMatchedByLocalId() {
        return false;
    }

    /** Whether a NACK UNKNOWN_CONNECTION must name an outstanding PSN to match: yes (clause 9.1.10). */
    default boolean unknownConnectionNackNeedsOutstandingPsn() {
        return true;
    }

    /** Whether a NACK for a rejected packet waits until its ACK has gone: no (clause 9.1.2). */
    default boolean nackQueuedBehindAck() {
        return false;
    }

    /** Whether a later packet of a message finished by rejecting it is rejected again: no, it is stale (clause 7.5.6). */
    default boolean rejectedMessageRejectedAgain() {
        return false;
    }

    /** Whether a teardown drops, without a completion, an unfinished work request: never (clause 4.2.2). */
    default boolean teardownForgets(final boolean unstarted, final boolean waitingRead) {
        return false;
    }

    /** What invalidating the source of a wholly sent work request does at once: nothing, it acts when the source is read again or the last ACK arrives (clause 11.1.7). */
    default int onWhollySentSourceInvalidated() {
        return INVALIDATION_WAITS;
    }

    /** Whether a late NACK may fail a message whose outcome is fixed but whose completion waits for its turn: no (clause 9.1.7). */
    default boolean lateNackFailsUndelivered() {
        return false;
    }

    /** Whether a message waits for the peer's maximum outstanding messages per stream: yes (clauses 4.2.1, 7.5.10). */
    default boolean honoursPeerMessageLimit() {
        return true;
    }

    /**
     * Whether a message a NACK failed is known finished at the peer, for the peer's limit, though not every PSN of it
     * was acknowledged: yes (clause 7.5.10).
     */
    default boolean failedMessageKnownFinished() {
        return true;
    }

    /** The spec's answer to every decision. */
    ConnectionSeam CORRECT = new ConnectionSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements ConnectionSeam {
        protected final ConnectionSeam next;

        protected Forwarding(final ConnectionSeam next) {
            this.next = next;
        }

        @Override
        public int pathEntropy(final int entropyBase, final int pathId) {
            return next.pathEntropy(entropyBase, pathId);
        }

        @Override
        public long initialReceivePsn(final long declaredPsn) {
            return next.initialReceivePsn(declaredPsn);
        }

        @Override
        public boolean readWaitKeepsTimerRunning() {
            return next.readWaitKeepsTimerRunning();
        }

        @Override
        public int maxConnectionWindow(final int declared, final int unbounded) {
            return next.maxConnectionWindow(declared, unbounded);
        }

        @Override
        public boolean receiveRingGrownWithStaleIndex() {
            return next.receiveRingGrownWithStaleIndex();
        }

        @Override
        public boolean messageRingGrownWithStaleIndex() {
            return next.messageRingGrownWithStaleIndex();
        }

        @Override
        public boolean readRequestCountsForFairShare() {
            return next.readRequestCountsForFairShare();
        }

        @Override
        public boolean activeForFairShare(
                final long sinceDataNs, final long activeWindowNs, final boolean everReceived) {
            return next.activeForFairShare(sinceDataNs, activeWindowNs, everReceived);
        }

        @Override
        public double fairShareMbps(final double lineRateMbps, final double utilization, final int active) {
            return next.fairShareMbps(lineRateMbps, utilization, active);
        }

        @Override
        public long unknownConnectionAnswerIntervalNs(final long intervalNs) {
            return next.unknownConnectionAnswerIntervalNs(intervalNs);
        }

        @Override
        public boolean unknownConnectionNackEchoesIds() {
            return next.unknownConnectionNackEchoesIds();
        }

        @Override
        public boolean unknownConnectionNackMatchedByLocalId() {
            return next.unknownConnectionNackMatchedByLocalId();
        }

        @Override
        public boolean unknownConnectionNackNeedsOutstandingPsn() {
            return next.unknownConnectionNackNeedsOutstandingPsn();
        }

        @Override
        public boolean nackQueuedBehindAck() {
            return next.nackQueuedBehindAck();
        }

        @Override
        public boolean rejectedMessageRejectedAgain() {
            return next.rejectedMessageRejectedAgain();
        }

        @Override
        public boolean teardownForgets(final boolean unstarted, final boolean waitingRead) {
            return next.teardownForgets(unstarted, waitingRead);
        }

        @Override
        public int onWhollySentSourceInvalidated() {
            return next.onWhollySentSourceInvalidated();
        }

        @Override
        public boolean lateNackFailsUndelivered() {
            return next.lateNackFailsUndelivered();
        }

        @Override
        public boolean honoursPeerMessageLimit() {
            return next.honoursPeerMessageLimit();
        }

        @Override
        public boolean failedMessageKnownFinished() {
            return next.failedMessageKnownFinished();
        }
    }
}

package org.mrconf.transport;

/**
 * The decisions of {@link SendScheduler}: what is sent next, on which path, and what a retransmission timeout does,
 * each a question the spec answers no to ({@link #CORRECT}). The reference's self-validation defects (package
 * {@code org.mrconf.transport.defects.scheduler}) answer yes to one each and forward the rest.
 */
public interface SchedulerSeam {
    /** Whether a queued message still reads a source invalidated before it started (the spec: no, clause 11.1.7). */
    default boolean invalidationMissesQueuedSends() {
        return false;
    }

    /**
     * Whether a READ_RESPONSE still reads its region after the region was invalidated (the spec: no, clause 11.1.4: no
     * byte of an invalidated region is read for the network).
     */
    default boolean invalidatedResponseSent() {
        return false;
    }

    /** Whether a resend reads an invalidated source anyway (the spec: no, clause 11.1.7). */
    default boolean invalidatedSourceResent() {
        return false;
    }

    /** Whether new packets all go to the first path with room (the spec: no, clause 6.5.1). */
    default boolean sprayFirstPathOnly() {
        return false;
    }

    /** Whether paths are taken in turn whatever their free window (the spec: no, clause 6.5.1). */
    default boolean sprayRoundRobinOnly() {
        return false;
    }

    /** Whether the spray pointer moves only when paths tie (the spec: no, clause 6.5.1). */
    default boolean sprayPointerMovesOnTiesOnly() {
        return false;
    }

    /** Whether a retransmission timeout leaves the congestion windows as they are (the spec: no, clause 10.1.3). */
    default boolean timeoutKeepsWindow() {
        return false;
    }

    /** Whether a loss resends every PSN after it too (the spec: no, selective, clause 6.4.1). */
    default boolean goBackN() {
        return false;
    }

    /** Whether a path keeps its entropy after a timeout (the spec: no, clause 6.7.1). */
    default boolean noRepathAfterRto() {
        return false;
    }

    /** Whether a PSN waiting out a RECEIVER_NOT_READY is resent at a timeout (the spec: no, clause 9.1.4). */
    default boolean waitingPsnResentOnTimeout() {
        return false;
    }

    /** Whether a connection never fails for lack of answers (the spec: no, clause 6.7.3). */
    default boolean noConnectionTimeout() {
        return false;
    }

    /** Whether a path timer is armed by the connection's outstanding count, not the path's (the spec: no, clause 6.6.4). */
    default boolean pathTimerArmedByConnectionCount() {
        return false;
    }

    /** Whether a message completes once sent, before its ACK (the spec: no, clause 7.5.2). */
    default boolean senderCompletesBeforeAck() {
        return false;
    }

    /** Whether unsent packets of an invalidated source are skipped silently (the spec: no, clause 11.1.7). */
    default boolean invalidatedUnsentSkipped() {
        return false;
    }

    /** Whether new packets ignore the connection window (the spec: no, clause 10.1.4). */
    default boolean connectionWindowIgnored() {
        return false;
    }

    /** The spec's answer to every decision. */
    SchedulerSeam CORRECT = new SchedulerSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements SchedulerSeam {
        protected final SchedulerSeam next;

        protected Forwarding(final SchedulerSeam next) {
            this.next = next;
        }

        @Override
        public boolean invalidationMissesQueuedSends() {
            return next.invalidationMissesQueuedSends();
        }

        @Override
        public boolean invalidatedResponseSent() {
            return next.invalidatedResponseSent();
        }

        @Override
        public boolean invalidatedSourceResent() {
            return next.invalidatedSourceResent();
        }

        @Override
        public boolean sprayFirstPathOnly() {
            return next.sprayFirstPathOnly();
        }

        @Override
        public boolean sprayRoundRobinOnly() {
            return next.sprayRoundRobinOnly();
        }

        @Override
        public boolean sprayPointerMovesOnTiesOnly() {
            return next.sprayPointerMovesOnTiesOnly();
        }

        @Override
        public boolean timeoutKeepsWindow() {
            return next.timeoutKeepsWindow();
        }

        @Override
        public boolean goBackN() {
            return next.goBackN();
        }

        @Override
        public boolean noRepathAfterRto() {
            return next.noRepathAfterRto();
        }

        @Override
        public boolean waitingPsnResentOnTimeout() {
            return next.waitingPsnResentOnTimeout();
        }

        @Override
        public boolean noConnectionTimeout() {
            return next.noConnectionTimeout();
        }

        @Override
        public boolean pathTimerArmedByConnectionCount() {
            return next.pathTimerArmedByConnectionCount();
        }

        @Override
        public boolean senderCompletesBeforeAck() {
            return next.senderCompletesBeforeAck();
        }

        @Override
        public boolean invalidatedUnsentSkipped() {
            return next.invalidatedUnsentSkipped();
        }

        @Override
        public boolean connectionWindowIgnored() {
            return next.connectionWindowIgnored();
        }
    }
}

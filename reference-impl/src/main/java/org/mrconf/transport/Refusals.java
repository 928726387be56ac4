package org.mrconf.transport;

import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.NackCode;

/**
 * How the receive path refuses a data packet or READ_REQUEST (spec sections 7.5.6, 9.1 and Table 5-13): a final NACK,
 * rate-limited per path, code and message (clause 9.1.5), with the message finished failed so that later messages of
 * its stream still complete in MSN order; a stale packet; a packet dropped because no state could be allocated for it.
 * Each is counted under its counter. {@link InboundData} and {@link InboundReads} share it.
 */
final class Refusals {
    private final EndpointState state;
    private final OutboundPackets out;
    private final CompletionDispatcher completions;
    /** Whether a NACK waits for the packet's ACK ({@link #sendQueuedNack}), and whether a rejected message stays so. */
    private final ConnectionSeam seam;
    /** What the NACK rate limit counts in: per message, stream or connection (clause 9.1.5, freedom F-20). */
    private final OpenChoices.NackLimitScope limitScope;

    private NackCode queuedNackCode;
    private Connection queuedNackConnection;
    private int queuedNackPath;
    private long queuedNackPsn;
    private int queuedNackStream;
    private long queuedNackMsn;
    /** The time of the packet being processed, for the NACK rate limit. */
    private long nowNs;

    /** The last message this endpoint finished by rejecting it, kept only if the seam rejects it again. */
    private Connection lastRejectedConnection;

    private int lastRejectedStream;
    private long lastRejectedMsn;
    private NackCode lastRejectedCode;

    Refusals(final EndpointState state, final OutboundPackets out, final CompletionDispatcher completions) {
        this.state = state;
        this.out = out;
        this.completions = completions;
        this.seam = state.seams.connection();
        this.limitScope = state.config.choices().nackLimitScope();
    }

    /** The time of the packet now processed. */
    void at(final long packetNs) {
        this.nowNs = packetNs;
    }

    /**
     * Rejects a packet with a final NACK code. When its message is known, the message is finished with
     * an error so that later messages of the stream still complete (clauses 7.5.8, 9.1.3).
     */
    ReceiveOutcome reject(
            final Connection connection,
            final int pathId,
            final DataHeaderFlyweight header,
            final NackCode code,
            final StreamReceiveState stream,
            final int index) {
        return reject(
                connection,
                pathId,
                header,
                code,
                stream,
                index,
                code == NackCode.MESSAGE_TOO_LONG
                        ? WorkCompletionStatus.LOCAL_LENGTH_ERROR
                        : WorkCompletionStatus.fromNack(code));
    }

    ReceiveOutcome reject(
            final Connection connection,
            final int pathId,
            final DataHeaderFlyweight header,
            final NackCode code,
            final StreamReceiveState stream,
            final int index,
            final WorkCompletionStatus status) {
        state.counters.increment(
                switch (code) {
                    case REMOTE_ACCESS -> Counter.REJECT_REMOTE_ACCESS;
                    case BOUNDS -> Counter.REJECT_BOUNDS;
                    case MESSAGE_TOO_LONG -> Counter.REJECT_MESSAGE_TOO_LONG;
                    default -> Counter.REJECT_INVALID_REQUEST;
                });
        if (!isSuppressed(connection, pathId, header, code, stream != null)) {
            if (seam.nackQueuedBehindAck()) {
                queuedNackCode = code;
                queuedNackConnection = connection;
                queuedNackPath = pathId;
                queuedNackPsn = header.psn();
                queuedNackStream = header.streamId();
                queuedNackMsn = header.messageSequenceNumber();
            } else {
                out.sendNack(
                        connection, pathId, header.psn(), code, header.streamId(), header.messageSequenceNumber(), 0);
            }
        }
        if (stream != null) {
            if (seam.rejectedMessageRejectedAgain()) {
                lastRejectedConnection = connection;
                lastRejectedStream = header.streamId();
                lastRejectedMsn = header.messageSequenceNumber();
                lastRejectedCode = code;
            }
            if (stream.messageState[index] == StreamReceiveState.EMPTY) {
                stream.occupy(index, header.opcode(), header.messageLength(), 0);
            }
            completions.finishReceived(connection, header.streamId(), stream, index, status);
        }
        return ReceiveOutcome.REJECTED;
    }

    /**
     * At most one final NACK per path, code and message per smoothed RTT (clause 9.1.5): the first already
     * fails the message, and the rejected PSNs are recorded as received, so the ACKs cover the rest. With a wider
     * {@link #limitScope} (freedom F-20) the last NACK of the path and code also holds back that of another message of
     * its stream, or of any message, but only for a packet refused at step 3, 5 or 6 of clause 5.6.6, the only ones
     * the limit can apply to: those that finish no message ({@code finishesMessage} false). A message refused at step
     * 7 or 8 always draws its NACK.
     */
    private boolean isSuppressed(
            final Connection connection,
            final int pathId,
            final DataHeaderFlyweight header,
            final NackCode code,
            final boolean finishesMessage) {
        final PathReceiver path = connection.receivePaths[pathId];
        final boolean sameMessage = path.lastFinalNackStream == header.streamId()
                && path.lastFinalNackMsn == header.messageSequenceNumber();
        final boolean sameScope = sameMessage
                || !finishesMessage
                        && switch (limitScope) {
                            case MESSAGE -> false;
                            case STREAM -> path.lastFinalNackStream == header.streamId();
                            case CONNECTION -> true;
                        };
        final boolean repeat = path.lastFinalNackCode == code.value()
                && sameScope
                && nowNs - path.lastFinalNackNs < connection.sendPaths[pathId].rtt.srttNs();
        if (!repeat) {
            path.lastFinalNackCode = code.value();
            path.lastFinalNackStream = header.streamId();
            path.lastFinalNackMsn = header.messageSequenceNumber();
            path.lastFinalNackNs = nowNs;
        }
        return repeat;
    }

    /** NACK_QUEUED_BEHIND_ACK: sends the NACK that {@link #reject} queued while the packet was processed. */
    void sendQueuedNack() {
        if (queuedNackCode == null) {
            return;
        }
        final NackCode code = queuedNackCode;
        queuedNackCode = null;
        out.sendNack(queuedNackConnection, queuedNackPath, queuedNackPsn, code, queuedNackStream, queuedNackMsn, 0);
        queuedNackConnection = null;
    }

    /** Counts a packet dropped unrecorded: no state could be allocated for it. */
    ReceiveOutcome dropped() {
        state.counters.increment(Counter.RX_DROPPED_NO_STATE);
        return ReceiveOutcome.DROPPED;
    }

    /**
     * A packet of a finished message: stale (clause 7.5.6), unless the seam rejects a later packet of the
     * message it last rejected again with the same code (never, as the spec says).
     */
    ReceiveOutcome finished(final Connection connection, final int pathId, final DataHeaderFlyweight header) {
        if (seam.rejectedMessageRejectedAgain()
                && lastRejectedConnection == connection
                && lastRejectedStream == header.streamId()
                && lastRejectedMsn == header.messageSequenceNumber()) {
            return reject(connection, pathId, header, lastRejectedCode, null, 0); // the defect
        }
        return stale();
    }

    /**
     * Counts a stale packet: its message is finished (complete, accepted or rejected, clause 7.5.6); it is acknowledged,
     * not placed.
     */
    ReceiveOutcome stale() {
        state.counters.increment(Counter.RX_STALE);
        return ReceiveOutcome.STALE;
    }
}

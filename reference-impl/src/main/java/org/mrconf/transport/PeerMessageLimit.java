package org.mrconf.transport;

import java.util.BitSet;
import org.mrconf.wire.Opcode;

/**
 * The peer's maximum outstanding messages per stream (spec clauses 4.2.1 and 7.5.10): a message does not start while
 * its MSN is that many past a message of its stream not yet known finished at the peer (every PSN acknowledged, or
 * failed by a NACK). The peer would otherwise NACK it INVALID_REQUEST (Table 5-13) and fail a work request the
 * application had every right to post.
 *
 * <p>Only the send queue's rare path pays for it: with the default limit (none but the MSN window) nothing is looked
 * at, and when the head of the queue waits, later messages of other streams go first, so one stream's wait holds back
 * no other stream (clause 7.5.3's spirit on the sending side).
 */
final class PeerMessageLimit {
    /** Whether messages wait for the limit at all (the spec: yes). */
    private final boolean honoured;
    /** Whether a message a NACK failed counts as finished (the spec: yes). */
    private final boolean failedKnownFinished;
    /** Streams seen waiting during one scan of the queue; reused, so a scan allocates nothing. */
    private final BitSet waitingStreams = new BitSet();

    PeerMessageLimit(final EndpointConfig config) {
        this.honoured = config.seams().connection().honoursPeerMessageLimit();
        this.failedKnownFinished = config.seams().connection().failedMessageKnownFinished();
    }

    /** Whether {@code message} must wait before its first packet. */
    boolean mustWait(final Connection connection, final SendMessage message) {
        final long limit = connection.config.peerMaxOutstandingMessages();
        if (!honoured
                || limit >= ConnectionConfig.NO_MESSAGE_LIMIT
                || message.packetsSent > 0
                || message.opcode == Opcode.READ_RESPONSE) {
            return false;
        }
        final StreamSendState stream = connection.existingSendStream(message.streamId);
        if (stream == null) {
            return false;
        }
        // The stream's messages in MSN order, from the oldest not yet completed: the first not known finished decides.
        for (final SendMessage earlier : stream.awaitingCompletion) {
            if (earlier == message) {
                return false;
            }
            if (!knownFinished(earlier)) {
                return Serial.distance(earlier.msn, message.msn) >= limit;
            }
        }
        return false;
    }

    /**
     * The first message of the send queue that need not wait and follows no waiting message of its stream, or null.
     */
    SendMessage firstReady(final Connection connection) {
        waitingStreams.clear();
        for (final SendMessage message : connection.sendQueue) {
            if (message.isDone() || waitingStreams.get(message.streamId)) {
                continue;
            }
            if (mustWait(connection, message)) {
                waitingStreams.set(message.streamId);
                continue;
            }
            return message;
        }
        return null;
    }

    /**
     * Finished at the peer as far as the sender can know: every PSN acknowledged, or the message failed. A failed
     * message stays on its stream's list only while an earlier one waits to complete (a READ waiting for its data).
     */
    private boolean knownFinished(final SendMessage message) {
        if (message.isDone() && (message.status == WorkCompletionStatus.SUCCESS || failedKnownFinished)) {
            return true;
        }
        return message.packetsAcked == message.packetCount;
    }
}

package org.mrconf.transport;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.wire.Opcode;

/**
 * What invalidating a source region does at once to the wholly sent work requests that read it
 * ({@link ConnectionSeam#onWhollySentSourceInvalidated}). The spec's answer is nothing: the reference acts only when
 * the source is read again or the message's last ACK arrives (clause 11.1.7), a source wholly sent when invalidated
 * fails no connection, and its work request completes once every PSN of it is acknowledged; then this is never
 * consulted.
 */
final class EagerInvalidation {
    /** One of {@link ConnectionSeam}'s INVALIDATION_ answers. */
    private final int action;

    EagerInvalidation(final ConnectionSeam seam) {
        this.action = seam.onWhollySentSourceInvalidated();
    }

    /** Whether invalidation acts at once at all. */
    boolean any() {
        return action != ConnectionSeam.INVALIDATION_WAITS;
    }

    /** Acts on every unfinished, wholly sent work request of {@code connections} whose source is {@code region}. */
    void onInvalidated(
            final MemoryRegion region,
            final List<Connection> connections,
            final AckHandler ackHandler,
            final CompletionDispatcher completions) {
        for (final Connection connection : List.copyOf(connections)) {
            if (connection.failed) {
                continue;
            }
            final List<SendMessage> sent = new ArrayList<>();
            connection.forEachSendStream(stream -> {
                for (final SendMessage message : stream.awaitingCompletion) {
                    if (message.localRegion == region
                            && message.opcode != Opcode.READ_REQUEST
                            && message.completesToApplication()
                            && !message.isDone()
                            && message.isFullySegmented()) {
                        sent.add(message);
                    }
                }
            });
            if (sent.isEmpty()) {
                continue;
            }
            if (action == ConnectionSeam.INVALIDATION_FAILS_CONNECTION) {
                // Table 6-1's row for an invalidated source: that work request LOCAL_PROTECTION_ERROR, the rest
                // FLUSHED.
                ackHandler.failConnection(connection, WorkCompletionStatus.FLUSHED);
            } else {
                for (final SendMessage message : sent) {
                    completions.finishSend(connection, message, WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
                }
            }
        }
    }
}

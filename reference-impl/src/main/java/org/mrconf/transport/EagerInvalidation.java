package org.mrconf.transport;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.wire.Opcode;

/**
 * The self-validation defects that act on a work request at the moment its source region is invalidated, where the
 * clean reference acts only when the source is read again or the message's last ACK arrives (clause 11.1.7): a source
 * wholly sent when invalidated fails no connection, and its work request completes once every PSN of it is
 * acknowledged. With neither defect active this does nothing and is never consulted.
 */
final class EagerInvalidation {
    private final boolean failsConnection;
    private final boolean completesAtOnce;

    EagerInvalidation(final Defects defects) {
        this.failsConnection = defects.has(Defect.WHOLLY_SENT_SOURCE_FAILS_CONNECTION);
        this.completesAtOnce = defects.has(Defect.WHOLLY_SENT_SOURCE_COMPLETES_AT_INVALIDATION);
    }

    /** Whether either defect is active. */
    boolean any() {
        return failsConnection || completesAtOnce;
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
            if (failsConnection) {
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

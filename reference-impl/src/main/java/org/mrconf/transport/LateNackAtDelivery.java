package org.mrconf.transport;

import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;

/**
 * The self-validation defect FINISHED_ONLY_AT_DELIVERY: a message counts as finished, for a late NACK (clause 9.1.7,
 * Table 5-13), only once its completion has been delivered, not once its outcome is fixed. A message whose every PSN
 * was acknowledged while an earlier message of its stream is still outstanding waits for its turn in MSN order; with
 * the defect a NACK arriving meanwhile overwrites its outcome. Off, it is never consulted.
 */
final class LateNackAtDelivery {
    private final boolean active;

    LateNackAtDelivery(final Defects defects) {
        this.active = defects.has(Defect.FINISHED_ONLY_AT_DELIVERY);
    }

    /**
     * Fails {@code carried} with {@code status} if the defect takes it for unfinished: its outcome is fixed but its
     * completion still waits in its stream. Returns whether it did.
     */
    boolean failUndelivered(final Connection connection, final SendMessage carried, final WorkCompletionStatus status) {
        if (!active || !carried.isDone() || !carried.completesToApplication()) {
            return false;
        }
        final StreamSendState stream = connection.existingSendStream(carried.streamId);
        if (stream == null || !stream.awaitingCompletion.contains(carried)) {
            return false;
        }
        carried.status = status; // the defect: the outcome the last ACK fixed is overwritten before delivery
        return true;
    }
}

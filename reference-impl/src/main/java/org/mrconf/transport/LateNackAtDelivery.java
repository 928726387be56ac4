package org.mrconf.transport;

/**
 * Whether a message counts as finished, for a late NACK (clause 9.1.7, Table 5-13), once its outcome is fixed (the
 * spec) or only once its completion has been delivered ({@link ConnectionSeam#lateNackFailsUndelivered}). A message
 * whose every PSN was acknowledged while an earlier message of its stream is still outstanding waits for its turn in
 * MSN order; a NACK arriving meanwhile leaves its outcome as it is, unless the seam says otherwise.
 */
final class LateNackAtDelivery {
    private final boolean active;

    LateNackAtDelivery(final ConnectionSeam seam) {
        this.active = seam.lateNackFailsUndelivered();
    }

    /**
     * Fails {@code carried} with {@code status} if the seam takes it for unfinished: its outcome is fixed but its
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
        carried.status = status; // the outcome the last ACK fixed is overwritten before delivery
        return true;
    }
}

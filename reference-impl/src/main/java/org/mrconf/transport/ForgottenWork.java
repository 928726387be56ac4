package org.mrconf.transport;

import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.wire.Opcode;

/**
 * What a defective teardown loses before it flushes a destroyed connection's work (clause 4.2.2): nothing when clean.
 * Kept apart from {@link Endpoint} so that these self-validation defects sit at one seam.
 */
final class ForgottenWork {
    /** {@link Defect#TEARDOWN_FORGETS_UNSTARTED_WORK}. */
    private final boolean unstarted;

    /** {@link Defect#TEARDOWN_FORGETS_WAITING_READ}. */
    private final boolean waitingRead;

    ForgottenWork(final Defects defects) {
        this.unstarted = defects.has(Defect.TEARDOWN_FORGETS_UNSTARTED_WORK);
        this.waitingRead = defects.has(Defect.TEARDOWN_FORGETS_WAITING_READ);
    }

    /** Drops, without a completion, the unfinished work the defects forget. */
    void forget(final Connection connection) {
        if (!unstarted && !waitingRead) {
            return;
        }
        connection.sendQueue.removeIf(this::forgets);
        connection.forEachSendStream(stream -> stream.awaitingCompletion.removeIf(this::forgets));
    }

    private boolean forgets(final SendMessage message) {
        if (message.isDone() || !message.completesToApplication()) {
            return false;
        }
        // A teardown that walks only the list of messages with packets on the wire frees the rest with the queue.
        if (unstarted && message.packetsSent == 0) {
            return true;
        }
        // A READ whose request is acknowledged has left the send side for the table of responses awaited.
        return waitingRead && message.opcode == Opcode.READ_REQUEST && message.packetsAcked == message.packetCount;
    }
}

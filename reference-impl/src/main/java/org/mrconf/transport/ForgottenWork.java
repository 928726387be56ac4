package org.mrconf.transport;

import org.mrconf.wire.Opcode;

/**
 * What a teardown drops without a completion before it flushes a destroyed connection's work (clause 4.2.2): nothing,
 * as {@link ConnectionSeam#teardownForgets} answers for the spec.
 */
final class ForgottenWork {
    private final ConnectionSeam seam;

    ForgottenWork(final ConnectionSeam seam) {
        this.seam = seam;
    }

    /** Drops, without a completion, the unfinished work the seam says a teardown forgets. */
    void forget(final Connection connection) {
        connection.sendQueue.removeIf(this::forgets);
        connection.forEachSendStream(stream -> stream.awaitingCompletion.removeIf(this::forgets));
    }

    private boolean forgets(final SendMessage message) {
        if (message.isDone() || !message.completesToApplication()) {
            return false;
        }
        // Unstarted: no packet on the wire. Waiting read: a READ whose request is acknowledged has left the send side
        // for the table of responses awaited.
        return seam.teardownForgets(
                message.packetsSent == 0,
                message.opcode == Opcode.READ_REQUEST && message.packetsAcked == message.packetCount);
    }
}

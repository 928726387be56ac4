package org.mrconf.transport;

import java.util.ArrayDeque;
import org.mrconf.wire.Opcode;

/**
 * Turns finished messages into completions, strictly in MSN order per stream (spec clauses 7.5.2,
 * 7.5.5, 7.5.8): a message that finishes early waits in its stream until every earlier one has left.
 */
final class CompletionDispatcher {
    /** The decisions the spec fixes here; see {@link CompletionSeam}. */
    private final CompletionSeam seam;

    private final ArrayDeque<Completion> completions = new ArrayDeque<>();
    private final Counters counters;

    /** Freedom F-14 (clause 6.7.4): a partly filled receive's FLUSHED completion names the SEND's MSN and length. */
    private final boolean flushedReceiveNamesSend;

    CompletionDispatcher(final Counters counters) {
        this(counters, CompletionSeam.CORRECT);
    }

    CompletionDispatcher(final Counters counters, final CompletionSeam seam) {
        this(counters, seam, false);
    }

    /**
     * @param flushedReceiveNamesSend whether a receive a SEND has partly filled when its connection fails completes
     *     FLUSHED naming that SEND's MSN and message length (freedom F-14) rather than neither
     */
    CompletionDispatcher(final Counters counters, final CompletionSeam seam, final boolean flushedReceiveNamesSend) {
        this.seam = seam;
        this.flushedReceiveNamesSend = flushedReceiveNamesSend;
        this.counters = counters;
    }

    /** Ends a message we send (once; later calls are ignored) and releases what its stream allows. */
    void finishSend(final Connection connection, final SendMessage message, final WorkCompletionStatus status) {
        if (message.isDone()) {
            return;
        }
        message.status = status;
        if (message.opcode == Opcode.READ_REQUEST) {
            connection.readsBySink.remove((int) message.matchValue);
            if (seam.finishedReadsKeptBySink()) {
                connection.finishedReadsBySink.put((int) message.matchValue, message);
            }
        }
        if (!message.completesToApplication()) {
            return;
        }
        if (seam.errorCompletionsJumpTheQueue() && status != WorkCompletionStatus.SUCCESS) {
            connection.sendStream(message.streamId).awaitingCompletion.remove(message);
            emit(completionOf(connection, message));
            return;
        }
        if (seam.oneCompletionQueuePerConnection()) {
            for (final StreamSendState stream : connection.sendStreams()) {
                if (stream != null && stream.awaitingCompletion.stream().anyMatch(m -> !m.isDone())) {
                    return; // one queue for the whole connection: every stream waits for the slowest
                }
            }
            for (final StreamSendState stream : connection.sendStreams()) {
                if (stream != null) {
                    drainSend(connection, stream);
                }
            }
            return;
        }
        drainSend(connection, connection.sendStream(message.streamId));
    }

    private static Completion completionOf(final Connection connection, final SendMessage done) {
        return new Completion(
                done.workRequestId,
                connection.localId(),
                done.streamId,
                done.msn,
                done.completionType(),
                done.status,
                done.length,
                0);
    }

    private void drainSend(final Connection connection, final StreamSendState stream) {
        if (seam.completionsOutOfMsnOrder()) {
            for (final java.util.Iterator<SendMessage> it = stream.awaitingCompletion.iterator(); it.hasNext(); ) {
                final SendMessage done = it.next();
                if (done.isDone()) {
                    it.remove();
                    emit(completionOf(connection, done));
                }
            }
            return;
        }
        while (!stream.awaitingCompletion.isEmpty()
                && stream.awaitingCompletion.peekFirst().isDone()) {
            final SendMessage done = stream.awaitingCompletion.pollFirst();
            emit(new Completion(
                    done.workRequestId,
                    connection.localId(),
                    done.streamId,
                    done.msn,
                    done.completionType(),
                    done.status,
                    done.length,
                    0));
        }
    }

    /** Releases the completions of received messages that are complete and next in MSN order. */
    /**
     * Ends a message received on {@code stream} at {@code index}, with {@code status}, and delivers the receive
     * completions the stream's MSN order now allows (clause 7.5.2).
     */
    void finishReceived(
            final Connection connection,
            final int streamId,
            final StreamReceiveState stream,
            final int index,
            final WorkCompletionStatus status) {
        stream.messageState[index] = StreamReceiveState.COMPLETE;
        stream.messageStatus[index] = status;
        stream.finishSegments(index);
        drainReceive(connection, streamId, stream);
    }

    void drainReceive(final Connection connection, final int streamId, final StreamReceiveState stream) {
        while (true) {
            final int index = stream.messageIndex(stream.nextMsnToDeliver);
            if (stream.messageState[index] != StreamReceiveState.COMPLETE) {
                if (seam.receiveCompletionsSkipSilentMessages()) {
                    deliverSendsPastSilentMessages(connection, streamId, stream);
                }
                return;
            }
            final Opcode opcode = stream.messageOpcode[index];
            final WorkCompletionStatus status = stream.messageStatus[index];
            if (opcode == Opcode.SEND && stream.messageRsn[index] != StreamReceiveState.NO_RSN) {
                final long rsn = stream.messageRsn[index];
                final int receive = stream.receiveIndex(rsn);
                emit(new Completion(
                        stream.receiveWorkRequestId[receive],
                        connection.localId(),
                        streamId,
                        stream.nextMsnToDeliver,
                        WorkCompletionType.RECEIVE,
                        status,
                        stream.messageLength[index],
                        0));
                stream.retireReceive(rsn);
            } else if (opcode == Opcode.WRITE_WITH_IMMEDIATE && status == WorkCompletionStatus.SUCCESS) {
                emit(new Completion(
                        0,
                        connection.localId(),
                        streamId,
                        stream.nextMsnToDeliver,
                        WorkCompletionType.RECEIVE_IMMEDIATE,
                        status,
                        stream.messageLength[index],
                        stream.messageImmediate[index]));
            }
            stream.delivered(index);
        }
    }

    /**
     * When the seam says receive completions skip silent messages: orders receive completions only among the messages that
     * raise one, so a complete SEND behind incomplete WRITEs or READ_REQUESTs of its stream completes at once. Its
     * receive is retired and its RSN cleared, so {@link #drainReceive} delivers the message later without a second
     * completion.
     */
    private void deliverSendsPastSilentMessages(
            final Connection connection, final int streamId, final StreamReceiveState stream) {
        long msn = stream.nextMsnToDeliver;
        for (int seen = 0; seen < stream.messageCapacity(); seen++, msn = Serial.add(msn, 1)) {
            final int index = stream.messageIndex(msn);
            final Opcode opcode = stream.messageOpcode[index];
            if (stream.messageState[index] == StreamReceiveState.EMPTY || opcode == null) {
                return; // an unknown message: even this device waits for it
            }
            if (opcode == Opcode.WRITE || opcode == Opcode.READ_REQUEST) {
                continue; // raises no receive completion, so it holds no place here
            }
            if (opcode != Opcode.SEND || stream.messageState[index] != StreamReceiveState.COMPLETE) {
                return;
            }
            final long rsn = stream.messageRsn[index];
            if (rsn != StreamReceiveState.NO_RSN) {
                emit(new Completion(
                        stream.receiveWorkRequestId[stream.receiveIndex(rsn)],
                        connection.localId(),
                        streamId,
                        msn,
                        WorkCompletionType.RECEIVE,
                        stream.messageStatus[index],
                        stream.messageLength[index],
                        0));
                stream.retireReceive(rsn);
                stream.messageRsn[index] = StreamReceiveState.NO_RSN;
            }
        }
    }

    /** Fails every message and posted receive of a connection, in MSN and RSN order. */
    void flush(final Connection connection, final WorkCompletionStatus status) {
        connection.sendQueue.clear();
        connection.forEachSendStream(stream -> {
            for (final SendMessage message : stream.awaitingCompletion) {
                if (!message.isDone()) {
                    // Table 6-1 (clause 6.7.4): a work request whose own buffer was invalidated while in use completes
                    // LOCAL_PROTECTION_ERROR whatever ended the connection (clause 11.1.7).
                    message.status = ownBufferInvalidated(message) && !seam.failureStatusUniform()
                            ? WorkCompletionStatus.LOCAL_PROTECTION_ERROR
                            : status;
                }
            }
            drainSend(connection, stream);
        });
    }

    /** Whether {@code message} is the device's own work and its source or sink region has been invalidated. */
    private static boolean ownBufferInvalidated(final SendMessage message) {
        return message.opcode != org.mrconf.wire.Opcode.READ_RESPONSE && !message.localRegion.isValid();
    }

    /** Whether a failure gives every unfinished work request its own status, Table 6-1 ignored (the spec: no). */
    boolean failureStatusUniform() {
        return seam.failureStatusUniform();
    }

    /** Flushes the posted receives of every stream of the connection. */
    void flushAllReceives(final Connection connection) {
        connection.forEachReceiveStream((streamId, stream) -> flushReceives(connection, streamId, stream));
    }

    /** Flushes the posted receives that no SEND has consumed yet. */
    void flushReceives(final Connection connection, final int streamId, final StreamReceiveState stream) {
        for (long rsn = stream.oldestLiveRsn; rsn != stream.nextRsnToPost; rsn = Serial.add(rsn, 1)) {
            if (stream.isReceiveRetired(rsn)) {
                continue; // completed already, out of RSN order
            }
            if (seam.partlyFilledReceiveNeverFlushed() && stream.isReceiveHeld(rsn)) {
                continue; // the defect: a SEND partly placed in it, so it is taken as consumed, and never completes
            }
            final int receive = stream.receiveIndex(rsn);
            final long msn = flushedReceiveNamesSend && stream.isReceiveHeld(rsn) ? stream.msnHolding(rsn) : -1;
            emit(new Completion(
                    stream.receiveWorkRequestId[receive],
                    connection.localId(),
                    streamId,
                    msn,
                    WorkCompletionType.RECEIVE,
                    WorkCompletionStatus.FLUSHED,
                    msn == -1 ? 0 : stream.messageLength[stream.messageIndex(msn)],
                    0));
        }
        stream.clearReceives();
    }

    private void emit(final Completion completion) {
        completions.addLast(completion);
        counters.increment(Counter.MESSAGES_COMPLETED);
    }

    /** The next completion, or null. */
    Completion poll() {
        return completions.pollFirst();
    }

    int pending() {
        return completions.size();
    }
}

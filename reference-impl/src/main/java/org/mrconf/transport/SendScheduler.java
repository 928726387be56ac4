package org.mrconf.transport;

import java.util.SplittableRandom;
import org.mrconf.wire.Opcode;

/**
 * Decides what a connection sends next and when: retransmissions first, then new packets sprayed over
 * the healthy path with the most free window (spec clauses 10.2.1, 10.2.2), within the path and
 * connection windows and the pacer; and runs the per-path timers (clauses 6.6.2 to 6.7.3).
 */
final class SendScheduler {
    /** The decisions the spec fixes here; see {@link SchedulerSeam}. */
    private final SchedulerSeam seam;

    private static final int EPHEMERAL_PORT_BASE = 49152;
    private static final int EPHEMERAL_PORT_COUNT = 65536 - EPHEMERAL_PORT_BASE;
    /** Draws before {@link #repath} gives up looking for a better entropy value (a bounded loop, never a hang). */
    private static final int MAX_REPATH_ATTEMPTS = 256;

    private final EndpointState state;
    private final OutboundPackets out;
    private final CompletionDispatcher completions;
    private final AckHandler ackHandler;
    private final SplittableRandom entropyRandom;

    SendScheduler(
            final EndpointState state,
            final OutboundPackets out,
            final CompletionDispatcher completions,
            final AckHandler ackHandler) {
        this.state = state;
        this.out = out;
        this.completions = completions;
        this.ackHandler = ackHandler;
        this.tailLossProbe = new TailLossProbe(state.config);
        this.peerMessageLimit = new PeerMessageLimit(state.config);
        this.entropyRandom = new SplittableRandom(state.config.entropySeed());
        this.seam = state.seams.scheduler();
        this.timeoutResendsOldestOnly = state.config.timeoutResendsOldestOnly();
        this.messagesInterleaved = state.config.choices().messagesInterleaved();
        this.responsesOnRequestPath = state.config.choices().readResponsesOnRequestPath();
        this.entropyChangedAtIdle = state.config.choices().entropyChangedAtIdle();
    }

    /** A legal choice of clause 6.6.2 (freedom F-11): an expiry resends the oldest outstanding PSN alone. */
    private final boolean timeoutResendsOldestOnly;

    /** A legal choice of clause 7.5.7 (freedom F-16): queued messages take turns, one packet each. */
    private final boolean messagesInterleaved;

    /** A legal choice of clause 7.4.1 (freedom F-15): READ_RESPONSEs go on the path of their READ_REQUEST. */
    private final boolean responsesOnRequestPath;

    /** A legal choice of clause 4.1.4 (freedom F-1): a path takes a new entropy value each time it leaves idle. */
    private final boolean entropyChangedAtIdle;

    private final TailLossProbe tailLossProbe;
    private final PeerMessageLimit peerMessageLimit;

    /** Sends everything the windows and the pacer allow now. */
    void pump(final Connection connection, final long nowNs) {
        if (connection.failed) {
            return;
        }
        if (!sendRetransmissions(connection, nowNs)) {
            return;
        }
        while (!connection.sendQueue.isEmpty()) {
            final SendMessage head = connection.sendQueue.peekFirst();
            if (head.isDone()) {
                connection.sendQueue.pollFirst(); // failed before all of it went out
                continue;
            }
            if (connectionWindowFull(connection)) {
                return;
            }
            // Clause 7.5.10: the head may wait for the peer's message limit; then a message of another stream goes.
            final SendMessage message =
                    peerMessageLimit.mustWait(connection, head) ? peerMessageLimit.firstReady(connection) : head;
            if (message == null) {
                return;
            }
            if (message.opcode != Opcode.READ_REQUEST
                    && !message.localRegion.isValid()
                    && !seam.invalidationMissesQueuedSends()
                    && !(message.opcode == Opcode.READ_RESPONSE && seam.invalidatedResponseSent())) {
                // Never read an invalidated region for the network (clause 11.1.4); nothing of it has a PSN yet.
                if (message.opcode == Opcode.READ_RESPONSE) {
                    abandonReadResponse(connection, message);
                } else if (seam.invalidatedUnsentSkipped()) {
                    // The defect: the message is dropped and the stream goes on, leaving its MSN for ever unfinished
                    // at the peer.
                    connection.sendQueue.remove(message);
                    completions.finishSend(connection, message, WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
                } else {
                    // Clause 11.1.7: a packet of it will never be sent, so the peer would never see its message
                    // finished; the connection fails (Table 6-1: this one LOCAL_PROTECTION_ERROR, the others FLUSHED).
                    ackHandler.failConnection(
                            connection,
                            completions.failureStatusUniform()
                                    ? WorkCompletionStatus.LOCAL_PROTECTION_ERROR
                                    : WorkCompletionStatus.FLUSHED);
                    return;
                }
                continue;
            }
            final PathSender path = seam.sprayFirstPathOnly()
                    ? (connection.sendPaths[0].freeWindow() > 0 ? connection.sendPaths[0] : null)
                    : responsesOnRequestPath && message.opcode == Opcode.READ_RESPONSE
                            ? requestPath(connection, message)
                            : choosePath(connection, seam.sprayRoundRobinOnly(), seam.sprayPointerMovesOnTiesOnly());
            if (path == null) {
                return;
            }
            final int length = message.nextPayloadLength();
            final int wireBytes = state.config.wireBytes(message.opcode.packetLength(length));
            if (!connection.pacer.canSend(wireBytes, nowNs)) {
                return;
            }
            final long psn = path.assign(message, message.nextOffset, length, nowNs);
            connection.unacknowledged++;
            if (path.unacknowledged == 1) {
                if (entropyChangedAtIdle) {
                    // Freedom F-1 (clause 4.1.4), as flowlet switching does: the path was idle, so no PSN it still
                    // owes was sent from the old value, and a later re-path still moves away from every one of them.
                    path.entropy = otherEntropy(connection, path);
                }
                if (!seam.pathTimerArmedByConnectionCount() || connection.unacknowledged == 1) {
                    path.rtoDeadlineNs = nowNs + path.rtt.rtoNs(); // the defect: armed by the connection's count
                }
                tailLossProbe.arm(path, nowNs);
            }
            if (connection.unacknowledged == 1) {
                connection.lastHeardNs = nowNs; // the silence clock starts when data becomes outstanding
            }
            message.nextOffset += length;
            message.packetsSent++;
            if (message.isFullySegmented()) {
                if (message == head) {
                    connection.sendQueue.pollFirst();
                } else {
                    connection.sendQueue.removeFirstOccurrence(message); // only while the head waits (7.5.10)
                }
                if (seam.senderCompletesBeforeAck()
                        && message.opcode != Opcode.READ_REQUEST
                        && message.opcode != Opcode.READ_RESPONSE) {
                    completions.finishSend(connection, message, WorkCompletionStatus.SUCCESS);
                }
            } else if (messagesInterleaved && message == head) {
                // Freedom F-16 (clause 7.5.7): the next packet is the next queued message's, so the packets of
                // queued messages, of one stream or several, go out interleaved.
                connection.sendQueue.addLast(connection.sendQueue.pollFirst());
            }
            out.sendData(connection, path, psn, false, nowNs);
            connection.pacer.onSent(wireBytes, nowNs);
        }
    }

    /** Resends lost and due waiting PSNs; returns false when the pacer stopped it. */
    private boolean sendRetransmissions(final Connection connection, final long nowNs) {
        for (final PathSender path : connection.sendPaths) {
            if (path.awaitingResend == 0) {
                continue;
            }
            if (path.repathBeforeResend) {
                path.repathBeforeResend = false;
                if (!seam.noRepathAfterRto()) {
                    repath(connection, path);
                }
            }
            for (long psn = path.oldestUnackedPsn; psn != path.nextPsn; psn = Serial.add(psn, 1)) {
                final int slot = PathSender.slot(psn);
                final byte slotState = path.slotState[slot];
                if (slotState != PathSender.LOST
                        && !(slotState == PathSender.WAITING
                                && !path.awaitsWindow(slot)
                                && nowNs - path.slotRetryAtNs[slot] >= 0)) {
                    continue;
                }
                final SendMessage message = path.slotMessage[slot];
                if (message.opcode != Opcode.READ_REQUEST
                        && !message.localRegion.isValid()
                        && !seam.invalidatedSourceResent()) {
                    // Its bytes may belong to someone else now; a PSN cannot be withdrawn, so the connection fails,
                    // as a verbs queue pair does on a local protection error (clause 11.1.7).
                    // Table 6-1: this work request LOCAL_PROTECTION_ERROR (its own buffer), the others FLUSHED.
                    ackHandler.failConnection(
                            connection,
                            completions.failureStatusUniform()
                                    ? WorkCompletionStatus.LOCAL_PROTECTION_ERROR // the defect: the culprit's for all
                                    : WorkCompletionStatus.FLUSHED);
                    return false;
                }
                final int wireBytes = state.config.wireBytes(message.opcode.packetLength(path.slotLength[slot]));
                if (!connection.pacer.canSend(wireBytes, nowNs)) {
                    return false;
                }
                path.slotState[slot] = PathSender.IN_FLIGHT;
                path.awaitingResend--;
                path.slotRetransmitted[slot] = true;
                path.slotGapSeenNs[slot] = ReorderTolerance.NO_GAP;
                out.sendData(connection, path, psn, true, nowNs);
                path.slotSentNs[slot] = nowNs; // after sending: RETRANSMIT_STALE_TIMESTAMP reads the previous time
                connection.pacer.onSent(wireBytes, nowNs);
                if (seam.goBackN()) {
                    for (long later = Serial.add(psn, 1); later != path.nextPsn; later = Serial.add(later, 1)) {
                        if (path.slotState[PathSender.slot(later)] == PathSender.ACKED) {
                            out.sendData(connection, path, later, true, nowNs);
                        }
                    }
                }
                if (path.awaitingResend == 0) {
                    break;
                }
            }
        }
        return true;
    }

    /**
     * The healthy path with the most free window, ties broken round robin; null if none has room. With {@code
     * roundRobinOnly} (a self-validation defect) the next path in turn that has any room, whatever its free window. The
     * round-robin order continues after the path chosen, whether the pick was a tie or not (clause 10.2.2, Open Draft
     * 0.14); with {@code pointerOnTiesOnly} (a defect) it moves only after a tie.
     */
    private static PathSender choosePath(
            final Connection connection, final boolean roundRobinOnly, final boolean pointerOnTiesOnly) {
        final PathSender[] paths = connection.sendPaths;
        PathSender best = null;
        int bestFree = 0;
        int tied = 0;
        for (int k = 0; k < paths.length && !(roundRobinOnly && best != null); k++) {
            final PathSender path = paths[(connection.nextPathCursor + k) % paths.length];
            final int free = path.freeWindow();
            if (free > bestFree) {
                best = path;
                bestFree = free;
                tied = 1;
            } else if (free == bestFree && best != null) {
                tied++;
            }
        }
        if (best != null && (!pointerOnTiesOnly || tied > 1)) {
            connection.nextPathCursor = (best.pathId + 1) % paths.length;
        }
        return best;
    }

    /**
     * Freedom F-15: a READ_RESPONSE goes on the path its READ_REQUEST came on while that path is healthy (null while its
     * window is full, so the response waits for it), else on any path as other messages do.
     */
    private PathSender requestPath(final Connection connection, final SendMessage response) {
        final PathSender path = connection.sendPaths[response.requestPathId];
        if (!path.healthy) {
            return choosePath(connection, seam.sprayRoundRobinOnly(), seam.sprayPointerMovesOnTiesOnly());
        }
        return path.freeWindow() > 0 ? path : null;
    }

    /** The region of a READ went away before its data left: tell the requester (clause 11.1.4). */
    private void abandonReadResponse(final Connection connection, final SendMessage response) {
        connection.sendQueue.remove(response);
        response.status = WorkCompletionStatus.REMOTE_ACCESS_ERROR;
        out.sendNack(
                connection,
                response.requestPathId,
                response.requestPsn,
                org.mrconf.wire.NackCode.REMOTE_ACCESS,
                response.streamId,
                response.msn,
                0);
        state.counters.increment(Counter.REJECT_REMOTE_ACCESS);
    }

    /** Runs every timer of the connection that is due at {@code nowNs}. */
    void onTimers(final Connection connection, final RateHint rateHint, final long nowNs) {
        if (connection.failed) {
            return;
        }
        if (!seam.noConnectionTimeout()
                && connection.hasOutstanding()
                && nowNs - connection.lastHeardNs >= state.config.connectionTimeoutNs()) {
            ackHandler.failConnection(connection, WorkCompletionStatus.TRANSPORT_TIMEOUT);
            return;
        }
        for (final PathSender path : connection.sendPaths) {
            if (path.reorderDeadlineNs != ReorderTolerance.NO_GAP && nowNs - path.reorderDeadlineNs >= 0) {
                ackHandler.reorderTolerance().onDeadline(path, nowNs);
            }
            if (path.unacknowledged > 0 && nowNs - path.rtoDeadlineNs >= 0) {
                onRetransmissionTimeout(connection, path, nowNs);
            } else if (tailLossProbe.isDue(path, nowNs)) {
                out.sendProbe(connection, path, nowNs);
                tailLossProbe.onProbeSent(path, nowNs, nowNs & Serial.MASK);
            } else if (!path.healthy && path.unacknowledged == 0 && nowNs - path.probeDeadlineNs >= 0) {
                repath(connection, path);
                out.sendProbe(connection, path, nowNs);
                path.probeDeadlineNs = nowNs + unhealthyTestIntervalNs(path);
            }
        }
        for (final PathReceiver path : connection.receivePaths) {
            if (path.unacknowledged > 0 && nowNs - path.ackDeadlineNs >= 0) {
                out.sendAck(connection, path, rateHint.currentMbps(nowNs));
            }
        }
    }

    /**
     * How long an unhealthy path with nothing outstanding waits for its next test (clause 6.7.2, freedom F-13): its
     * current, backed-off RTO, or the declared maximum RTO when the device so chooses.
     */
    private long unhealthyTestIntervalNs(final PathSender path) {
        return state.config.choices().unhealthyPathTestedAtMaximumRto() ? state.config.maxRtoNs() : path.rtt.rtoNs();
    }

    /**
     * The backstop (clauses 6.6.2 to 6.6.4, 6.7.1, 10.1.3): back off, pick new entropy, shrink the
     * window, and resend everything still in flight on the path (or, when so configured, the oldest PSN alone).
     */
    private void onRetransmissionTimeout(final Connection connection, final PathSender path, final long nowNs) {
        state.counters.increment(Counter.RTO_EXPIRATIONS);
        path.rtt.backOff();
        path.consecutiveTimeouts++;
        if (path.healthy && path.consecutiveTimeouts >= state.config.unhealthyAfterTimeouts()) {
            path.healthy = false;
            path.probeDeadlineNs = nowNs + unhealthyTestIntervalNs(path);
            state.counters.increment(Counter.PATHS_MARKED_UNHEALTHY);
        }
        if (!seam.noRepathAfterRto()) {
            repath(connection, path);
        }
        if (!seam.timeoutKeepsWindow()) {
            path.congestionWindow.onTimeout();
        }
        path.repathBeforeResend = false;
        path.releaseOnTimeout(); // a PSN NACKed PSN_OUT_OF_WINDOW: on the timer if no ACK moved the window (9.1.11)
        for (long psn = path.oldestUnackedPsn; psn != path.nextPsn; psn = Serial.add(psn, 1)) {
            // Only IN_FLIGHT PSNs become lost: one waiting for its RECEIVER_NOT_READY retry keeps waiting (9.1.9).
            if (seam.waitingPsnResentOnTimeout() && path.slotState[PathSender.slot(psn)] == PathSender.WAITING) {
                path.slotState[PathSender.slot(psn)] = PathSender.LOST; // the defect
            }
            if (timeoutResendsOldestOnly && path.slotState[PathSender.slot(psn)] != PathSender.IN_FLIGHT) {
                continue; // acknowledged, waiting or already lost: not the oldest one this expiry resends
            }
            path.markLost(psn);
            if (timeoutResendsOldestOnly) {
                break; // clause 6.6.2's least: the oldest outstanding PSN alone (freedom F-11)
            }
        }
        path.rtoDeadlineNs = nowNs + path.rtt.rtoNs();
        tailLossProbe.onTimeout(path, nowNs);
    }

    /**
     * Gives a path a new entropy value, distinct from every path of the connection (clause 4.1.5), whose UDP source
     * port on the wire differs from the path's current one (clause 6.6.4: the port is the entropy, so a new value
     * that the network maps onto the same socket would not re-path at all). When the network has fewer ports than
     * the connection has paths, sharing a port with another path is accepted after a few tries; a network with a
     * single port cannot re-path, and a device built on one does not claim the multipath profile.
     */
    private void repath(final Connection connection, final PathSender path) {
        path.entropy = otherEntropy(connection, path);
        state.counters.increment(Counter.REPATHS);
    }

    /** The new entropy value {@link #repath} gives a path, by the rules it describes. */
    private int otherEntropy(final Connection connection, final PathSender path) {
        final int currentPort = out.sourcePortOf(path.entropy);
        int candidate;
        int attempts = 0;
        while (true) {
            candidate = EPHEMERAL_PORT_BASE + entropyRandom.nextInt(EPHEMERAL_PORT_COUNT);
            attempts++;
            if (attempts >= MAX_REPATH_ATTEMPTS) {
                break;
            }
            if (isInUse(connection, candidate)) {
                continue;
            }
            final int port = out.sourcePortOf(candidate);
            if (port == currentPort) {
                continue;
            }
            if (attempts < MAX_REPATH_ATTEMPTS / 2 && isPortInUse(connection, port)) {
                continue;
            }
            break;
        }
        return candidate;
    }

    private boolean isPortInUse(final Connection connection, final int port) {
        for (final PathSender other : connection.sendPaths) {
            if (out.sourcePortOf(other.entropy) == port) {
                return true;
            }
        }
        return false;
    }

    private static boolean isInUse(final Connection connection, final int port) {
        for (final PathSender other : connection.sendPaths) {
            if (other.entropy == port) {
                return true;
            }
        }
        return false;
    }

    /** Whether the connection has as many packets in flight as its congestion window allows (clause 10.1.2). */
    private boolean connectionWindowFull(final Connection connection) {
        return connection.unacknowledged >= connection.congestionWindow.packets() && !seam.connectionWindowIgnored();
    }

    /** The earliest time this connection needs attention, or {@link Long#MAX_VALUE}. */
    long nextDeadlineNs(final Connection connection, final long nowNs) {
        if (connection.failed) {
            return Long.MAX_VALUE;
        }
        long deadline = Long.MAX_VALUE;
        if (connection.hasOutstanding()) {
            deadline = connection.lastHeardNs + state.config.connectionTimeoutNs();
        }
        final boolean canSendNew =
                !connection.sendQueue.isEmpty() && !connectionWindowFull(connection) && hasMessageReady(connection);
        boolean hasResend = false;
        for (final PathSender path : connection.sendPaths) {
            if (path.unacknowledged > 0) {
                deadline = Math.min(deadline, Math.min(path.rtoDeadlineNs, tailLossProbe.deadlineNs(path)));
                if (path.reorderDeadlineNs != ReorderTolerance.NO_GAP) {
                    deadline = Math.min(deadline, path.reorderDeadlineNs);
                }
            } else if (!path.healthy) {
                deadline = Math.min(deadline, path.probeDeadlineNs);
            }
            if (path.awaitingResend > 0) {
                final long due = earliestResend(path, nowNs);
                if (due - nowNs <= 0) {
                    hasResend = true;
                } else {
                    deadline = Math.min(deadline, due);
                }
            }
        }
        if (canSendNew && choosePathExists(connection) || hasResend) {
            deadline = Math.min(
                    deadline, connection.pacer.eligibleAtNs(state.config.wireBytes(state.config.mtuBytes()), nowNs));
        }
        for (final PathReceiver path : connection.receivePaths) {
            if (path.unacknowledged > 0) {
                deadline = Math.min(deadline, path.ackDeadlineNs);
            }
        }
        return deadline;
    }

    /** Whether a queued message may start now: one waiting for the peer's message limit (7.5.10) needs an ACK. */
    private boolean hasMessageReady(final Connection connection) {
        final SendMessage head = connection.sendQueue.peekFirst();
        return !peerMessageLimit.mustWait(connection, head) || peerMessageLimit.firstReady(connection) != null;
    }

    private static boolean choosePathExists(final Connection connection) {
        for (final PathSender path : connection.sendPaths) {
            if (path.freeWindow() > 0) {
                return true;
            }
        }
        return false;
    }

    private static long earliestResend(final PathSender path, final long nowNs) {
        long earliest = Long.MAX_VALUE;
        for (long psn = path.oldestUnackedPsn; psn != path.nextPsn; psn = Serial.add(psn, 1)) {
            final int slot = PathSender.slot(psn);
            if (path.slotState[slot] == PathSender.LOST) {
                return nowNs;
            }
            if (path.slotState[slot] == PathSender.WAITING && !path.awaitsWindow(slot)) {
                earliest = Math.min(earliest, path.slotRetryAtNs[slot]);
            }
        }
        return earliest;
    }
}

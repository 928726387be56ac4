package org.mrconf.transport;

import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackFlyweight;

/**
 * The sender's reaction to ACKs and NACKs: acknowledging PSNs and the messages they carry, RTT
 * samples, loss detection from SACK gaps, window growth and decrease, the rate hint (spec sections 6,
 * 8, 9 and 10).
 */
final class AckHandler {
    /** The decisions the spec fixes here; see {@link AckSeam}. */
    private final AckSeam seam;

    private static final long HALF_RANGE = 1L << 31;

    private final EndpointState state;
    private final CompletionDispatcher completions;

    private final ReorderTolerance reorderTolerance;
    private final LateNackAtDelivery lateNackAtDelivery;
    private final TailLossProbe tailLossProbe;
    /** A sender without the congestion profile that ignores CE counts and rate hints (clause 8.2.6, freedom F-19). */
    private final boolean ignoresCongestionSignals;
    /** Whether only progress restores a backed-off RTO (clause 6.6.3, freedom F-12). */
    private final boolean backoffKeptWithoutProgress;
    /** Whether the rate-hint window floors are rounded up to whole packets (clause 10.1.5, freedom F-26). */
    private final boolean windowFloorsRoundedUp;
    /** A sender that takes a NACK's cumulative psn as an ACK without SACK bits (clause 9.1.8, freedom F-21). */
    private final boolean nackCumulativeTakenAsAck;
    /** How long a PSN NACKed RECEIVER_NOT_READY with retry-after 0 waits: 0, at once, or later (clause 9.1.9, F-22). */
    private final long zeroRetryAfterWaitNs;

    AckHandler(final EndpointState state, final CompletionDispatcher completions) {
        this.tailLossProbe = new TailLossProbe(state.config);
        this.state = state;
        this.completions = completions;
        this.seam = state.seams.ack();
        this.lateNackAtDelivery = new LateNackAtDelivery(state.seams.connection());
        this.reorderTolerance = new ReorderTolerance(state.config);
        this.ignoresCongestionSignals = !state.config.offers(Feature.CONGESTION)
                && state.config.choices().ignoresCongestionSignals();
        this.zeroRetryAfterWaitNs = state.config.choices().zeroRetryAfterWaitNs();
        this.nackCumulativeTakenAsAck = state.config.choices().nackCumulativeTakenAsAck();
        this.backoffKeptWithoutProgress = state.config.choices().backoffKeptWithoutProgress();
        this.windowFloorsRoundedUp = state.config.choices().windowFloorsRoundedUp();
    }

    /** Whether {@code psn} is exactly 2^31 from {@code nextPsn}: neither before nor after it (clause 2.4). */
    private static boolean isHalfWay(final long nextPsn, final long psn) {
        return Serial.distance(nextPsn, psn) == 1L << 31;
    }

    /** Table 9-1's action for a code, unless the seam changes it. */
    private NackCode.SenderAction actionFor(final NackCode code) {
        final NackCode.SenderAction action = code.senderAction();
        if (action == NackCode.SenderAction.RETRY_LATER && seam.receiverNotReadyFatal()) {
            return NackCode.SenderAction.FAIL_MESSAGE;
        }
        if (action == NackCode.SenderAction.FAIL_MESSAGE && seam.finalNackRetransmitted()) {
            return NackCode.SenderAction.RETRANSMIT;
        }
        if (action == NackCode.SenderAction.FAIL_CONNECTION && seam.unknownConnectionFailsOnlyMessage()) {
            return NackCode.SenderAction.FAIL_MESSAGE;
        }
        return action;
    }

    /** The error status a failed work request carries for a code (clause 7.5.8). */
    private WorkCompletionStatus statusFor(final NackCode code) {
        return code == NackCode.BOUNDS && seam.boundsErrorMisreported()
                ? WorkCompletionStatus.REMOTE_ACCESS_ERROR
                : WorkCompletionStatus.fromNack(code);
    }

    void onAck(final Connection connection, final AckFlyweight ack, final long nowNs) {
        final int pathId = ack.pathId();
        if (pathId >= connection.sendPaths.length) {
            state.counters.increment(Counter.RX_INVALID_PATH);
            return;
        }
        state.counters.increment(Counter.RX_ACKS);
        final PathSender path = connection.sendPaths[pathId];
        final long cumulative = ack.cumulativePsn();
        // A reordered ACK (its cumulative PSN before the path's) is no error (Table 5-13); the defect measures the
        // distance without asking which way it goes, so an old ACK looks like one for PSNs never sent. A cumulative
        // PSN exactly 2^31 from the next PSN is neither before nor after it: never sent either.
        if ((isHalfWay(path.nextPsn, cumulative) && !seam.halfWayTakenAsOld())
                || (seam.reorderedAckCountedInvalid() || !Serial.before(cumulative, path.oldestUnackedPsn))
                        && Serial.distance(path.oldestUnackedPsn, cumulative) > path.outstandingSpan()) {
            // Acknowledges PSNs never sent: a broken or hostile peer. Table 5-13 counts it as an invalid field;
            // the x_ counter tells it apart from the decoder's field checks.
            state.counters.increment(Counter.RX_INVALID_FIELD);
            state.counters.increment(Counter.RX_ACKS_FOR_UNSENT_PSN);
            return;
        }
        connection.lastHeardNs = nowNs;
        // A late ACK (Table 5-13): its cumulative PSN is before the path's oldest unacknowledged PSN.
        // Unless it acknowledges some PSN for the first time, it gives an RTT sample and its CE count, but its rate
        // hint is not the most recent one (10.1.4) and it shows no progress: no health (6.7.2), no end of backoff.
        final boolean behind = Serial.before(cumulative, path.oldestUnackedPsn) && !seam.lateAckTakenAsNew();
        final long echoed = seam.echoIgnored()
                ? path.slotSentNs[PathSender.slot(Serial.add(cumulative, -1))]
                : ack.echoedTimestamp();
        final long rttNs = (nowNs - echoed) & Serial.MASK;
        final boolean sampled = rttNs < HALF_RANGE;
        // An ACK whose cumulative PSN passes the oldest unacknowledged PSN moves the receive window (clause 9.1.11).
        final boolean windowMoved = Serial.before(path.oldestUnackedPsn, cumulative);
        int newlyAcked = acknowledgeBefore(connection, path, cumulative);
        int highestSacked = -1;
        for (int word = 0; word < AckFlyweight.SACK_WORDS; word++) {
            long bits = ack.sackWord(word);
            while (bits != 0) {
                final int bit = word * Long.SIZE + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
                final long psn = Serial.add(cumulative, bit);
                if (path.isOutstanding(psn)) {
                    if (acknowledge(connection, path, psn)) {
                        newlyAcked++;
                    }
                    highestSacked = bit;
                }
            }
        }
        final boolean late = behind && newlyAcked == 0;
        // Clause 6.6.3: an ACK that advances the cumulative PSN or sets a new SACK bit restores the computed RTO;
        // another that is not late may (freedom F-12: the standard configuration does, a variant does not).
        final boolean cumulativeAdvances = Serial.before(path.highestCumulativePsn, cumulative);
        if (cumulativeAdvances) {
            path.highestCumulativePsn = cumulative;
        }
        final boolean restores = !late && (newlyAcked > 0 || cumulativeAdvances || !backoffKeptWithoutProgress);
        if (sampled) {
            path.rtt.onSample(rttNs, restores || seam.lateAckEndsBackoff());
        }
        path.advanceOldestUnacked();
        if (windowMoved) {
            path.windowAdvanced(nowNs);
        }
        detectLoss(path, cumulative, highestSacked, nowNs);
        final boolean answeredProbe = tailLossProbe.onAck(path, ack.echoedTimestamp());
        if (!late) {
            onPathAnswered(path);
        } else {
            onLateAckDefects(path);
        }
        if (newlyAcked > 0
                && path.unacknowledged > 0
                && !(seam.pathTimerNotRestartedBeyondPath0() && path.pathId != 0)) {
            path.rtoDeadlineNs = nowNs + path.rtt.rtoNs();
        }
        if ((newlyAcked > 0 || answeredProbe) && path.unacknowledged > 0) {
            tailLossProbe.arm(path, nowNs);
        }
        if (ignoresCongestionSignals) {
            return; // without the congestion profile, CE counts and rate hints may be ignored (clause 8.2.6, F-19)
        }
        if (!late) {
            applyRateHint(connection, ack.rateHint(), nowNs);
        }
        final long srttNs = path.rtt.srttNs();
        final double exactFloor = seam.rateHintFloorIgnored() ? 0 : hintedWindowPackets(connection, srttNs);
        final double exactPathFloor = exactFloor / healthyPaths(connection);
        // Freedom F-26: either floor may be kept exact or rounded up to whole packets (clause 10.1.5).
        final double connectionFloor = windowFloorsRoundedUp ? Math.ceil(exactFloor) : exactFloor;
        final double pathFloor = windowFloorsRoundedUp ? Math.ceil(exactPathFloor) : exactPathFloor;
        path.congestionWindow.onAck(newlyAcked, ack.ceCount(), nowNs, srttNs, pathFloor);
        if (seam.decreaseAppliedToAllPaths() && ack.ceCount() > 0) {
            for (final PathSender other : connection.sendPaths) {
                if (other != path) {
                    other.congestionWindow.onAck(0, ack.ceCount(), nowNs, srttNs, 0);
                }
            }
        }
        connection.congestionWindow.onAck(
                newlyAcked,
                seam.connectionWindowBlindToCe() ? 0 : ack.ceCount(),
                nowNs,
                seam.connectionDecreaseSpacedByMarkedPath() ? srttNs : connectionSrttNs(connection, srttNs),
                connectionFloor);
    }

    /**
     * The window the receiver's rate hint needs at the current RTT (clause 10.1.5). While the receiver
     * holds the sender below line rate, it is already pacing it to a fair share of the last hop and
     * scaling that share down on CE marks; windows shrinking further would only make the shares
     * unequal. Without such a hint there is no floor.
     */
    private double hintedWindowPackets(final Connection connection, final long srttNs) {
        final long rate = connection.pacer.rateBitsPerSecond();
        if (rate >= state.config.lineRateBitsPerSecond()) {
            return 0;
        }
        // In packets of the connection's MTU; every connection of this device has its one MTU.
        return rate / 8.0 * srttNs / 1e9 / state.config.mtuBytes();
    }

    /**
     * The smoothed RTT of the connection (section 10): the smallest SRTT among its healthy paths with
     * an RTT sample; {@code fallbackNs} (the acknowledging path's, the initial RTO before any sample) while none has.
     */
    private static long connectionSrttNs(final Connection connection, final long fallbackNs) {
        long smallest = Long.MAX_VALUE;
        for (final PathSender path : connection.sendPaths) {
            if (path.healthy && path.rtt.hasSample()) {
                smallest = Math.min(smallest, path.rtt.srttNs());
            }
        }
        return smallest == Long.MAX_VALUE ? fallbackNs : smallest;
    }

    private static int healthyPaths(final Connection connection) {
        int healthy = 0;
        for (final PathSender path : connection.sendPaths) {
            if (path.healthy) {
                healthy++;
            }
        }
        return Math.max(1, healthy);
    }

    void onNack(final Connection connection, final NackFlyweight nack, final long nowNs) {
        final int pathId = nack.pathId();
        if (pathId >= connection.sendPaths.length) {
            state.counters.increment(Counter.RX_INVALID_PATH);
            return;
        }
        state.counters.increment(Counter.RX_NACKS);
        connection.lastHeardNs = nowNs;
        final PathSender path = connection.sendPaths[pathId];
        final long psn = nack.psn();
        final NackCode code = nack.code();
        onPathAnswered(path);
        final boolean outstanding = path.isOutstanding(psn);
        if (code != NackCode.UNKNOWN_CONNECTION) { // clause 9.1.10 matches that one on its own terms
            if (seam.halfWayTakenAsOld() && isHalfWay(path.nextPsn, psn)) {
                state.counters.increment(Counter.RX_STALE); // the defect: a signed compare puts it in the past
                return;
            }
            if (!Serial.before(psn, path.nextPsn)) {
                // Table 5-13: a PSN never sent on the path, as an ACK of PSNs never sent: a broken or hostile peer.
                state.counters.increment(Counter.RX_INVALID_FIELD);
                return;
            }
            if (outstanding && !namesItsMessage(path, nack) && !seam.nackFieldsUnchecked()) {
                // Table 5-13: an outstanding PSN with another message's stream or MSN. Which of the two is wrong
                // cannot be known, so the NACK changes nothing.
                state.counters.increment(Counter.RX_INVALID_FIELD);
                return;
            }
            if (outstanding && (codeMismatchDropped(path, psn, code) || zeroRetryDropped(nack, code))) {
                state.counters.increment(
                        Counter.RX_INVALID_FIELD); // only at the seam's say: a valid NACK read as malformed
                return;
            }
        }
        if (nackCumulativeTakenAsAck && code != NackCode.UNKNOWN_CONNECTION && outstanding) {
            // Before the NACK's own action, and never past the PSN it names: that PSN is the action's (a failed message
            // fails before its PSN counts as acknowledged; one NACKed RECEIVER_NOT_READY or PSN_OUT_OF_WINDOW is not
            // recorded, and its resend waits for a window that moves after this NACK, clause 9.1.11).
            final long cumulative = nack.cumulativePsn();
            takeCumulativeAsAck(connection, path, Serial.before(psn, cumulative) ? psn : cumulative, nowNs);
        }
        // Clause 9.1.2: the code's action is taken whatever the opcode of the PSN it names.
        switch (actionFor(code)) {
            case RETRANSMIT -> {
                if (outstanding && seam.outOfWindowResentAtOnce()) {
                    path.markWaiting(psn, nowNs); // the defect: resent at once, as if a gap had shown it lost
                } else if (outstanding) {
                    path.markWaitingForWindow(psn); // once an ACK moves the window, or on the timer (9.1.11)
                } else {
                    // Table 5-13: names nothing outstanding (the defect: lumped with PSNs never sent)
                    state.counters.increment(
                            seam.staleRetransmitNackCountedInvalid() ? Counter.RX_INVALID_FIELD : Counter.RX_STALE);
                }
            }
            case RETRY_LATER -> {
                if (outstanding) {
                    final long waitNs = nack.retryAfter() == 0 ? zeroRetryAfterWaitNs : nack.retryAfter() * 1000;
                    path.markWaiting(psn, seam.retryAfterIgnored() ? nowNs : nowNs + waitNs);
                } else {
                    state.counters.increment(Counter.RX_STALE);
                }
            }
            case FAIL_MESSAGE -> {
                if (outstanding) {
                    // The PSN names the message exactly; a READ response carries the requester's MSN space.
                    final SendMessage message = path.slotMessage[PathSender.slot(psn)];
                    if (seam.nackedPsnAcknowledgedFirst()) {
                        acknowledge(connection, path, psn); // the defect: the message's last PSN completes it first
                    }
                    // None of its unsent packets goes out (clause 9.1.7), unless a defect keeps a response going.
                    final boolean stopped =
                            message.opcode != org.mrconf.wire.Opcode.READ_RESPONSE || !seam.failedResponseSentOn();
                    if (stopped) {
                        connection.sendQueue.remove(message);
                    }
                    // Fail the message before its PSN counts as acknowledged, or acknowledging the last packet of a
                    // message would complete it successfully first (clauses 9.1.2, 9.1.7).
                    if (message.opcode == org.mrconf.wire.Opcode.READ_RESPONSE) {
                        if (stopped) {
                            message.status = statusFor(code);
                        }
                    } else {
                        completions.finishSend(connection, message, statusFor(code));
                    }
                    acknowledge(connection, path, psn); // the receiver recorded it (clause 9.1.4)
                    path.advanceOldestUnacked();
                } else if (seam.nackMatchedByMsnAlone() || seam.staleNackFailsStreamHead()) {
                    if (!failMessage(connection, nack.streamId(), nack.messageSequenceNumber(), statusFor(code))) {
                        state.counters.increment(Counter.RX_STALE); // the defect's stream and MSN lookup found none
                    }
                } else if (seam.overtakenNackIgnored()
                        || !failCarried(connection, path.carriedBy(psn), nack, statusFor(code))) {
                    // Table 5-13: a late NACK of a finished message, or one naming what was never sent.
                    state.counters.increment(Counter.RX_STALE);
                }
            }
            case FAIL_CONNECTION -> failConnection(connection, WorkCompletionStatus.REMOTE_UNKNOWN_CONNECTION);
        }
    }

    /**
     * Freedom F-21 (clause 9.1.8): a NACK's cumulative psn taken as an ACK without SACK bits. A cumulative PSN that is
     * behind the path's oldest unacknowledged PSN, or reports PSNs never sent, acknowledges nothing.
     */
    private void takeCumulativeAsAck(
            final Connection connection, final PathSender path, final long cumulative, final long nowNs) {
        if (isHalfWay(path.nextPsn, cumulative)
                || !Serial.before(path.oldestUnackedPsn, cumulative)
                || Serial.distance(path.oldestUnackedPsn, cumulative) > path.outstandingSpan()) {
            return;
        }
        final int newlyAcked = acknowledgeBefore(connection, path, cumulative);
        path.advanceOldestUnacked();
        path.windowAdvanced(nowNs);
        if (newlyAcked > 0) {
            if (path.unacknowledged > 0) {
                path.rtoDeadlineNs = nowNs + path.rtt.rtoNs();
                tailLossProbe.arm(path, nowNs);
            }
            final long srttNs = path.rtt.srttNs();
            path.congestionWindow.onAck(newlyAcked, 0, nowNs, srttNs, 0);
            connection.congestionWindow.onAck(newlyAcked, 0, nowNs, connectionSrttNs(connection, srttNs), 0);
        }
    }

    /**
     * A message whose source was invalidated before its last ACK fails, whatever the ACK says (clause 11.1.7): the
     * application may have reused the buffer while its bytes were still being read. A READ_RESPONSE reads the region
     * for the peer, not for a work request of this endpoint, so it has nothing to fail.
     */
    private WorkCompletionStatus statusOnLastAck(final SendMessage message) {
        final boolean ownWork = message.opcode != org.mrconf.wire.Opcode.READ_RESPONSE;
        return ownWork && !message.localRegion.isValid() && !seam.invalidatedSourceCompletesSuccess()
                ? WorkCompletionStatus.LOCAL_PROTECTION_ERROR
                : WorkCompletionStatus.SUCCESS;
    }

    /** NACK_CODE_CHECKED_AGAINST_OPCODE: a RECEIVER_NOT_READY for no SEND, or a BOUNDS for a SEND. */
    private boolean codeMismatchDropped(final PathSender path, final long psn, final NackCode code) {
        if (!seam.nackCodeCheckedAgainstOpcode()) {
            return false;
        }
        final boolean send = path.slotMessage[PathSender.slot(psn)].opcode == org.mrconf.wire.Opcode.SEND;
        return code == NackCode.RECEIVER_NOT_READY && !send || code == NackCode.BOUNDS && send;
    }

    /** ZERO_RETRY_AFTER_DROPPED: a RECEIVER_NOT_READY with retry-after 0. */
    private boolean zeroRetryDropped(final NackFlyweight nack, final NackCode code) {
        return seam.zeroRetryAfterDropped() && code == NackCode.RECEIVER_NOT_READY && nack.retryAfter() == 0;
    }

    /** Any answer on a path proves it carries traffic again (clause 6.7.2). */
    /** What the seam takes a late ACK as a sign of life for (nothing: clauses 6.6.3, 6.7.2 say it is none). */
    private void onLateAckDefects(final PathSender path) {
        if (seam.lateAckResetsExpiryCount()) {
            path.consecutiveTimeouts = 0;
        }
        if (seam.lateAckHealsPath() && !path.healthy) {
            path.healthy = true;
            state.counters.increment(Counter.PATHS_RECOVERED);
        }
    }

    private void onPathAnswered(final PathSender path) {
        path.consecutiveTimeouts = 0;
        if (!path.healthy && !seam.unhealthyPathNotRecovered()) {
            path.healthy = true;
            state.counters.increment(Counter.PATHS_RECOVERED);
        }
    }

    private int acknowledgeBefore(final Connection connection, final PathSender path, final long cumulative) {
        if (Serial.before(cumulative, path.oldestUnackedPsn)) {
            return 0; // an old ACK overtaken by a newer one
        }
        int newlyAcked = 0;
        for (long psn = path.oldestUnackedPsn; psn != cumulative; psn = Serial.add(psn, 1)) {
            if (acknowledge(connection, path, psn)) {
                newlyAcked++;
            }
        }
        return newlyAcked;
    }

    private boolean acknowledge(final Connection connection, final PathSender path, final long psn) {
        if (!path.acknowledge(psn)) {
            return false;
        }
        connection.unacknowledged--;
        final SendMessage message = path.slotMessage[PathSender.slot(psn)];
        message.packetsAcked++;
        if (message.isFullySegmented()
                && message.packetsAcked == message.packetCount
                && (message.opcode != org.mrconf.wire.Opcode.READ_REQUEST
                        || seam.emptyReadCompletesOnAck()
                                && message.length == 0)) { // the defect: no bytes, nothing awaited
            completions.finishSend(connection, message, statusOnLastAck(message));
        }
        return true;
    }

    /**
     * A PSN that an ACK reports missing while it reports a later one received is lost (clause 6.3.1), once the
     * declared reorder tolerance allows (clause 6.3.3, {@link ReorderTolerance}); a retransmitted PSN is declared lost
     * again only after one smoothed RTT (clause 6.4.3).
     */
    private void detectLoss(final PathSender path, final long cumulative, final int highestSacked, final long nowNs) {
        // PSNs after the one at hand that the receiver has reported received: counted once, then passed one by one.
        int reportedAfter = reorderTolerance.active() ? reportedReceived(path, cumulative, highestSacked) : 0;
        boolean firstHoleSeen = false;
        for (int bit = 0; bit < highestSacked; bit++) {
            final long psn = Serial.add(cumulative, bit);
            if (!path.isOutstanding(psn)) {
                continue;
            }
            final int slot = PathSender.slot(psn);
            if (path.slotState[slot] == PathSender.ACKED) {
                reportedAfter--;
                continue;
            }
            if (seam.waitingPsnLostOnGap() && path.slotState[slot] == PathSender.WAITING) {
                path.slotState[slot] = PathSender.LOST; // the defect: the retry-after is cut short by the gap
                continue;
            }
            // A PSN waiting for its RECEIVER_NOT_READY retry is not IN_FLIGHT: no gap makes it lost (clause 9.1.9).
            if (path.slotState[slot] == PathSender.IN_FLIGHT
                    && (!path.slotRetransmitted[slot]
                            || seam.gapResendsOnEveryAck()
                            || nowNs - path.slotSentNs[slot] >= path.rtt.srttNs())
                    && reorderTolerance.lostNow(path, slot, reportedAfter, nowNs)) {
                if (seam.firstHoleLeftToTheTimer() && !firstHoleSeen) {
                    firstHoleSeen = true; // the defect: the first hole is skipped, as by a loop starting one too far
                    continue;
                }
                path.markLost(psn);
                if (seam.onlyFirstHoleLost()) {
                    return;
                }
            }
        }
    }

    /** How many outstanding PSNs from {@code cumulative} to the highest SACK bit are acknowledged. */
    private static int reportedReceived(final PathSender path, final long cumulative, final int highestSacked) {
        int received = 0;
        for (int bit = 0; bit <= highestSacked; bit++) {
            final long psn = Serial.add(cumulative, bit);
            if (path.isOutstanding(psn) && path.slotState[PathSender.slot(psn)] == PathSender.ACKED) {
                received++;
            }
        }
        return received;
    }

    /** The sender's declared reorder tolerance, whose deadlines {@link SendScheduler} runs. */
    ReorderTolerance reorderTolerance() {
        return reorderTolerance;
    }

    private void applyRateHint(final Connection connection, final long hintMbps, final long nowNs) {
        final long lineRate = state.config.lineRateBitsPerSecond();
        final long rate = hintMbps == AckFlyweight.RATE_HINT_NO_LIMIT || seam.rateHintIgnored()
                ? lineRate
                : Math.min(lineRate, Math.max(1, hintMbps) * (seam.rateHintReadAsBytes() ? 8_000_000L : 1_000_000L));
        if (rate != connection.pacer.rateBitsPerSecond()) {
            connection.pacer.rate(rate, nowNs);
        }
    }

    /** Whether a NACK's stream id and MSN are those of the message its (outstanding) PSN carries. */
    private static boolean namesItsMessage(final PathSender path, final NackFlyweight nack) {
        final SendMessage message = path.slotMessage[PathSender.slot(nack.psn())];
        // Never null for the clean reference, whose window never outgrows its slots; under a defect that lets it
        // (send-window-off-by-one) there is nothing to compare, so the NACK is taken as before the check existed.
        return message == null || message.streamId == nack.streamId() && message.msn == nack.messageSequenceNumber();
    }

    /**
     * Fails the unfinished message of {@code streamId} and {@code msn}, for a NACK whose PSN is no longer outstanding
     * (an ACK that overtook it acknowledged the PSN, clause 9.1.7); false when there is none.
     */
    /**
     * Clause 9.1.7: a NACK whose PSN is no longer outstanding is matched to the message that PSN
     * carried, if that message is unfinished and the NACK's stream id and MSN are its own. A READ_RESPONSE carries its
     * READ's MSN in the requester's space, so a stream and MSN lookup alone could fail this device's own message.
     */
    private boolean failCarried(
            final Connection connection,
            final SendMessage carried,
            final NackFlyweight nack,
            final WorkCompletionStatus status) {
        if (carried == null || carried.streamId != nack.streamId() || carried.msn != nack.messageSequenceNumber()) {
            return false;
        }
        if (carried.isDone()) {
            return lateNackAtDelivery.failUndelivered(connection, carried, status);
        }
        connection.sendQueue.remove(carried);
        if (carried.opcode == org.mrconf.wire.Opcode.READ_RESPONSE) {
            carried.status = status; // the rest of the response is not sent; nothing completes (clause 9.1.7)
        } else {
            completions.finishSend(connection, carried, status);
        }
        return true;
    }

    /**
     * The defects NACK_MATCHED_BY_MSN_ALONE (the stream's unfinished message with the NACK's MSN, whatever it is) and
     * STALE_NACK_FAILS_STREAM_HEAD (the stream's oldest unfinished message, whatever its MSN).
     */
    private boolean failMessage(
            final Connection connection, final int streamId, final long msn, final WorkCompletionStatus status) {
        final StreamSendState stream = connection.existingSendStream(streamId);
        if (stream == null) {
            return false; // nothing was ever sent on it; a NACK naming it must not create state
        }
        for (final SendMessage message : stream.awaitingCompletion) {
            if ((message.msn == msn || seam.staleNackFailsStreamHead()) && !message.isDone()) {
                connection.sendQueue.remove(message);
                completions.finishSend(connection, message, status);
                return true;
            }
        }
        // A READ response we owe is refused by the requester: stop sending it.
        return connection.sendQueue.removeIf(
                m -> m.opcode == org.mrconf.wire.Opcode.READ_RESPONSE && m.streamId == streamId && m.msn == msn);
    }

    /**
     * Fails every outstanding work request of the connection (clauses 6.7.3 and 9.1.2) and flushes its posted receives
     * (clause 6.7.4).
     */
    void failConnection(final Connection connection, final WorkCompletionStatus status) {
        if (connection.failed) {
            return;
        }
        connection.failed = true;
        state.counters.increment(Counter.CONNECTIONS_FAILED);
        completions.flush(connection, status);
        if (seam.receivesKeptAfterFailure()) {
            return; // the defect: the receives wait for a destroy
        }
        completions.flushAllReceives(connection);
        connection.receivesFlushed = true;
    }
}

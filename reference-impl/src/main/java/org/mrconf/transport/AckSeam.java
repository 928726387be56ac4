package org.mrconf.transport;

/**
 * The decisions {@link AckHandler} takes on ACKs and NACKs, each a question the spec answers no to ({@link #CORRECT}).
 * The reference's self-validation defects (package {@code org.mrconf.transport.defects.ack}) answer yes to one each
 * and forward the rest.
 */
public interface AckSeam {
    /**
     * Whether the endpoint does this (the spec: no): handles NACK RECEIVER_NOT_READY as fatal: fails the work request
     * instead of retrying.
     */
    default boolean receiverNotReadyFatal() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): fails a connection's work requests but leaves its posted receives
     * pending: they never complete until the connection is destroyed.
     */
    default boolean receivesKeptAfterFailure() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a NACK by its PSN alone: one naming an outstanding PSN
     * fails that PSN's message whatever stream id and MSN it carries, where Table 5-13 drops it and counts
     * {@code rx_invalid_field}.
     */
    default boolean nackFieldsUnchecked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a NACK whose PSN is no longer outstanding for the oldest
     * unfinished message of its stream, whatever its MSN (a per-stream queue that fails its head): a late NACK of a
     * finished message fails the next one, where Table 5-13 drops it as stale.
     */
    default boolean staleNackFailsStreamHead() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): counts a PSN_OUT_OF_WINDOW NACK whose PSN was sent and is no
     * longer outstanding under {@code rx_invalid_field}, as if its PSN had never been sent, where Table 5-13 counts it
     * stale ({@code rx_stale}).
     */
    default boolean staleRetransmitNackCountedInvalid() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a NACK whose PSN an ACK has already acknowledged as stale
     * even while the message that PSN carried is unfinished, where clause 9.1.7 fails that message (the NACK was
     * overtaken by the ACK, not late).
     */
    default boolean overtakenNackIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): after a fatal NACK names a PSN of a READ_RESPONSE, keeps sending
     * the packets of that response not yet sent, where clause 9.1.7 stops them.
     */
    default boolean failedResponseSentOn() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): measures how far an ACK's cumulative PSN lies from the oldest
     * unacknowledged PSN without asking which way, so a reordered ACK (cumulative PSN before the path's) looks like
     * one for PSNs never sent: dropped whole and counted {@code rx_invalid_field}, where Table 5-13 makes it no error.
     */
    default boolean reorderedAckCountedInvalid() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): resends a PSN NACKed PSN_OUT_OF_WINDOW at once, as if a gap had
     * shown it lost, instead of waiting for an ACK that moves the receive window or for the path's timer (clause
     * 9.1.11): the receiver, whose window is full, drops it again.
     */
    default boolean outOfWindowResentAtOnce() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads a NACK code as valid only for the opcodes that can earn it:
     * a RECEIVER_NOT_READY naming a PSN that does not carry a SEND, or a BOUNDS naming one that carries a SEND, is
     * dropped and counted under {@code rx_invalid_field}, where clause 9.1.2 says the sender takes the code's action
     * whatever the opcode.
     */
    default boolean nackCodeCheckedAgainstOpcode() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops a NACK RECEIVER_NOT_READY whose retry-after is 0 as
     * malformed ({@code rx_invalid_field}), where clause 9.1.9 makes it valid: the sender may resend at once. The PSN
     * comes again only on the path's timer.
     */
    default boolean zeroRetryAfterDropped() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): matches a NACK whose PSN is no longer outstanding by its stream
     * id and MSN alone (an earlier reading of the draft), where clause 9.1.7 matches it to the message that PSN
     * carried: a late NACK of a READ_RESPONSE, whose MSN is in the requester's space, fails this device's own WRITE
     * with the same stream and MSN.
     */
    default boolean nackMatchedByMsnAlone() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a late ACK (Table 5-13: its cumulative PSN before the
     * path's oldest unacknowledged PSN, acknowledging nothing new) as a new one: its rate hint replaces the newer
     * ACK's, it marks the path healthy and ends the backoff, where the draft uses only its echo and CE count.
     */
    default boolean lateAckTakenAsNew() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): lets the RTT sample of a late ACK (Table 5-13) restore the
     * computed RTO, so one ACK the network held back ends a path's backoff, where clause 6.6.3 lets only an ACK that
     * acknowledges something new do so.
     */
    default boolean lateAckEndsBackoff() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): resets a path's count of consecutive expiries on a late ACK, so
     * an ACK the network held back postpones the path's failover by a whole threshold of expiries, where clause 6.6.3
     * resets it only on an ACK that is not late or a NACK.
     */
    default boolean lateAckResetsExpiryCount() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): marks an unhealthy path healthy on a late ACK, which the network
     * may have held back from before the path failed, where clause 6.7.2 needs an ACK that is not late or a NACK.
     */
    default boolean lateAckHealsPath() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): retries a RECEIVER_NOT_READY packet at once, ignoring the
     * retry-after.
     */
    default boolean retryAfterIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): deems a PSN waiting for its RECEIVER_NOT_READY retry lost when an
     * ACK shows it missing, and resends it before its retry-after.
     */
    default boolean waitingPsnLostOnGap() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): treats the final codes as retryable: retransmits the packet
     * instead of failing the work request.
     */
    default boolean finalNackRetransmitted() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): completes a work request NACKed BOUNDS with REMOTE_ACCESS_ERROR.
     */
    default boolean boundsErrorMisreported() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): restarts the retransmission timer on an ACK that acknowledges a
     * PSN for the first time only on path 0: on every other path the timer keeps running from its first PSN, and
     * expires early after a partial ACK.
     */
    default boolean pathTimerNotRestartedBeyondPath0() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): fails only the NACKed work request on UNKNOWN_CONNECTION, leaving
     * the connection up.
     */
    default boolean unknownConnectionFailsOnlyMessage() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): completes a WRITE or SEND whose source was invalidated after its
     * packets went out with SUCCESS once they are acknowledged.
     */
    default boolean invalidatedSourceCompletesSuccess() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): ignores the rate hint of ACKs: paces at line rate only. */
    default boolean rateHintIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads the rate hint as Mbyte/s instead of Mbit/s, sending eight
     * times faster than hinted.
     */
    default boolean rateHintReadAsBytes() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): applies a CE report on one path to the windows of every path. */
    default boolean decreaseAppliedToAllPaths() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): decreases the path windows on CE reports but grows the connection
     * window on them as if unmarked.
     */
    default boolean connectionWindowBlindToCe() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): spaces the connection window's decreases by the smoothed RTT of
     * the path the marked ACK came on, not by the connection's (the smallest among its healthy paths', section 10), so
     * marks arriving on a slow path decrease the connection window too seldom.
     */
    default boolean connectionDecreaseSpacedByMarkedPath() {
        return false;
    }

    /**
     * Whether the endpoint does this (allowed alone: the control protocol makes {@code srttNs} optional): keeps the
     * smoothed RTT it makes of each path's ACKs (6.6.1) out of {@code path_status}, as an agent without that diagnostic
     * does, so a tester must judge what depends on it by the wire alone.
     */
    default boolean smoothedRttWithheld() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): deems only the first hole of an ACK lost, leaving later holes to
     * the timer.
     */
    default boolean onlyFirstHoleLost() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): never deems the first hole of an ACK lost, only the holes after
     * it, so a single lost PSN is resent only when the path's timer expires.
     */
    default boolean firstHoleLeftToTheTimer() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): resends a PSN on every ACK that shows it missing, however soon
     * after its last retransmission.
     */
    default boolean gapResendsOnEveryAck() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): lets CE decreases take its windows below the rate hint times the
     * smoothed RTT, starving a sender the receiver already paces to its share.
     */
    default boolean rateHintFloorIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): never marks an unhealthy path healthy again, whatever ACKs arrive
     * on it.
     */
    default boolean unhealthyPathNotRecovered() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes RTT samples from its own send time of the acknowledged PSN,
     * ignoring the ACK's echoed timestamp.
     */
    default boolean echoIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): compares PSNs as signed 32-bit differences, so an ACK cumulative
     * PSN or a NACK psn exactly 2^31 from the path's next PSN counts as one in the past: the ACK as a late one (no
     * error, not counted) when PSNs are outstanding, the NACK as a stale one ({@code rx_stale}), where Table 5-13
     * makes both PSNs never sent ({@code rx_invalid_field}).
     */
    default boolean halfWayTakenAsOld() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): completes a zero-length READ as soon as its READ_REQUEST is
     * acknowledged, since no byte is awaited, where clause 7.4.2 completes it when its one READ_RESPONSE arrives.
     */
    default boolean emptyReadCompletesOnAck() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): on a NACK with a final code, counts the rejected PSN as
     * acknowledged before failing its work request, so a message whose last PSN that is completes with SUCCESS.
     */
    default boolean nackedPsnAcknowledgedFirst() {
        return false;
    }

    /** The spec's answer to every decision. */
    AckSeam CORRECT = new AckSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements AckSeam {
        protected final AckSeam next;

        protected Forwarding(final AckSeam next) {
            this.next = next;
        }

        @Override
        public boolean receiverNotReadyFatal() {
            return next.receiverNotReadyFatal();
        }

        @Override
        public boolean receivesKeptAfterFailure() {
            return next.receivesKeptAfterFailure();
        }

        @Override
        public boolean nackFieldsUnchecked() {
            return next.nackFieldsUnchecked();
        }

        @Override
        public boolean staleNackFailsStreamHead() {
            return next.staleNackFailsStreamHead();
        }

        @Override
        public boolean staleRetransmitNackCountedInvalid() {
            return next.staleRetransmitNackCountedInvalid();
        }

        @Override
        public boolean overtakenNackIgnored() {
            return next.overtakenNackIgnored();
        }

        @Override
        public boolean failedResponseSentOn() {
            return next.failedResponseSentOn();
        }

        @Override
        public boolean reorderedAckCountedInvalid() {
            return next.reorderedAckCountedInvalid();
        }

        @Override
        public boolean outOfWindowResentAtOnce() {
            return next.outOfWindowResentAtOnce();
        }

        @Override
        public boolean nackCodeCheckedAgainstOpcode() {
            return next.nackCodeCheckedAgainstOpcode();
        }

        @Override
        public boolean zeroRetryAfterDropped() {
            return next.zeroRetryAfterDropped();
        }

        @Override
        public boolean nackMatchedByMsnAlone() {
            return next.nackMatchedByMsnAlone();
        }

        @Override
        public boolean lateAckTakenAsNew() {
            return next.lateAckTakenAsNew();
        }

        @Override
        public boolean lateAckEndsBackoff() {
            return next.lateAckEndsBackoff();
        }

        @Override
        public boolean lateAckResetsExpiryCount() {
            return next.lateAckResetsExpiryCount();
        }

        @Override
        public boolean lateAckHealsPath() {
            return next.lateAckHealsPath();
        }

        @Override
        public boolean retryAfterIgnored() {
            return next.retryAfterIgnored();
        }

        @Override
        public boolean waitingPsnLostOnGap() {
            return next.waitingPsnLostOnGap();
        }

        @Override
        public boolean finalNackRetransmitted() {
            return next.finalNackRetransmitted();
        }

        @Override
        public boolean boundsErrorMisreported() {
            return next.boundsErrorMisreported();
        }

        @Override
        public boolean pathTimerNotRestartedBeyondPath0() {
            return next.pathTimerNotRestartedBeyondPath0();
        }

        @Override
        public boolean unknownConnectionFailsOnlyMessage() {
            return next.unknownConnectionFailsOnlyMessage();
        }

        @Override
        public boolean invalidatedSourceCompletesSuccess() {
            return next.invalidatedSourceCompletesSuccess();
        }

        @Override
        public boolean rateHintIgnored() {
            return next.rateHintIgnored();
        }

        @Override
        public boolean rateHintReadAsBytes() {
            return next.rateHintReadAsBytes();
        }

        @Override
        public boolean decreaseAppliedToAllPaths() {
            return next.decreaseAppliedToAllPaths();
        }

        @Override
        public boolean connectionWindowBlindToCe() {
            return next.connectionWindowBlindToCe();
        }

        @Override
        public boolean connectionDecreaseSpacedByMarkedPath() {
            return next.connectionDecreaseSpacedByMarkedPath();
        }

        @Override
        public boolean smoothedRttWithheld() {
            return next.smoothedRttWithheld();
        }

        @Override
        public boolean onlyFirstHoleLost() {
            return next.onlyFirstHoleLost();
        }

        @Override
        public boolean firstHoleLeftToTheTimer() {
            return next.firstHoleLeftToTheTimer();
        }

        @Override
        public boolean gapResendsOnEveryAck() {
            return next.gapResendsOnEveryAck();
        }

        @Override
        public boolean rateHintFloorIgnored() {
            return next.rateHintFloorIgnored();
        }

        @Override
        public boolean unhealthyPathNotRecovered() {
            return next.unhealthyPathNotRecovered();
        }

        @Override
        public boolean echoIgnored() {
            return next.echoIgnored();
        }

        @Override
        public boolean halfWayTakenAsOld() {
            return next.halfWayTakenAsOld();
        }

        @Override
        public boolean emptyReadCompletesOnAck() {
            return next.emptyReadCompletesOnAck();
        }

        @Override
        public boolean nackedPsnAcknowledgedFirst() {
            return next.nackedPsnAcknowledgedFirst();
        }
    }
}

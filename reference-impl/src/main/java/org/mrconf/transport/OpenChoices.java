package org.mrconf.transport;

import org.mrconf.net.EcnCodepoint;

/**
 * Choices the Open Draft leaves to the device (its implementation freedoms, Table 12-3) that nothing declares and the
 * standard configuration takes one way ({@link #STANDARD}). The legal variants of {@code org.mrconf.variant} take them
 * the other way, so that the suite is shown to accept either.
 *
 * @param ectCodepoint          the ECN-capable codepoint of data packets, READ_REQUESTs and PROBEs: {@link
 *                              EcnCodepoint#ECT_0} or {@link EcnCodepoint#ECT_1} (clause 4.1.7, freedom F-3)
 * @param controlPacketEcn      the ECN codepoint of ACKs and NACKs: {@link EcnCodepoint#NOT_ECT} or an ECT one (clause
 *                              4.1.7, freedom F-4: nobody counts their marks)
 * @param nackLimitScope        what the NACK rate limit of clause 9.1.5 counts in (freedom F-20)
 * @param pacingTickNs          the pacer's granularity: 0 paces continuously; a positive tick refills the token bucket
 *                              only at whole ticks, as a timer wheel does (clause 10.1.4, freedom F-25)
 * @param windowFloorsRoundedUp whether the rate-hint window floors are rounded up to whole packets rather than kept at
 *                              their exact values (clause 10.1.5, freedom F-26)
 * @param messagesInterleaved   whether the packets of queued messages, of one stream or several, go out interleaved
 *                              (one packet of each in turn) rather than each message wholly before the next (clause
 *                              7.5.7, freedom F-16)
 * @param answersUnknownConnections whether a packet for no connection is answered with NACK UNKNOWN_CONNECTION (clause
 *                              11.2.3, a MAY clause the device lists in {@code hello} or not, freedom F-29)
 * @param backoffKeptWithoutProgress whether an ACK that is not late but neither advances the cumulative PSN nor sets a
 *                              new SACK bit leaves the backed-off RTO as it is, rather than restoring the computed one
 *                              (clause 6.6.3, freedom F-12)
 * @param ignoresCongestionSignals whether a sender without the congestion profile ignores the CE counts and rate hints
 *                              it receives rather than acting on them (clause 8.2.6, freedom F-19); no effect on a
 *                              sender with the profile
 * @param zeroRetryAfterWaitNs  how long a PSN NACKed RECEIVER_NOT_READY with retry-after 0 waits before its resend:
 *                              0 resends at once (clause 9.1.9, freedom F-22)
 * @param lateTailLossProbe     whether the tail-loss probe waits three quarters of the path's RTO rather than 1.25
 *                              smoothed RTTs plus the ACK delay (clause 6.3.4, freedom F-8: any time below the RTO)
 * @param probeDeemsNothingLost whether the probe's ACK leaves the PSNs it does not report to the timer rather than
 *                              deeming them lost (clause 6.3.4, freedom F-9)
 * @param roundRobinStartsAtLastPath whether a connection's first new packet starts the round-robin order at its last
 *                              path rather than path 0 (clause 10.2.2, freedom F-27)
 * @param readResponsesOnRequestPath whether READ_RESPONSEs go on the path their READ_REQUEST came on (while it is
 *                              healthy) rather than sprayed like other messages (clause 7.4.1, freedom F-15)
 * @param readsCompleteAtInvalidation whether a READ whose sink is invalidated after its READ_REQUEST went out completes
 *                              at the invalidation rather than at the first READ_RESPONSE after it (clause 11.1.7,
 *                              freedom F-28)
 * @param unhealthyPathTestedAtMaximumRto whether an unhealthy path with nothing outstanding is tested once per declared
 *                              maximum RTO, the longest interval allowed, rather than once per its current RTO (clause
 *                              6.7.2, freedom F-13)
 */
public record OpenChoices(
        int ectCodepoint,
        int controlPacketEcn,
        NackLimitScope nackLimitScope,
        long pacingTickNs,
        boolean windowFloorsRoundedUp,
        boolean messagesInterleaved,
        boolean answersUnknownConnections,
        boolean backoffKeptWithoutProgress,
        boolean ignoresCongestionSignals,
        long zeroRetryAfterWaitNs,
        boolean lateTailLossProbe,
        boolean probeDeemsNothingLost,
        boolean roundRobinStartsAtLastPath,
        boolean readResponsesOnRequestPath,
        boolean readsCompleteAtInvalidation,
        boolean unhealthyPathTestedAtMaximumRto) {

    /** What the standard configuration chooses. */
    public static final OpenChoices STANDARD = new OpenChoices(
            EcnCodepoint.ECT_0, // ectCodepoint
            EcnCodepoint.NOT_ECT, // controlPacketEcn
            NackLimitScope.MESSAGE, // nackLimitScope
            0, // pacingTickNs: continuous
            false, // windowFloorsRoundedUp
            false, // messagesInterleaved
            true, // answersUnknownConnections
            false, // backoffKeptWithoutProgress
            false, // ignoresCongestionSignals
            0, // zeroRetryAfterWaitNs: at once
            false, // lateTailLossProbe
            false, // probeDeemsNothingLost
            false, // roundRobinStartsAtLastPath
            false, // readResponsesOnRequestPath
            false, // readsCompleteAtInvalidation
            false); // unhealthyPathTestedAtMaximumRto

    public OpenChoices {
        if (!EcnCodepoint.isCapable(ectCodepoint)) {
            throw new IllegalArgumentException("data must be marked ECT(0) or ECT(1), not codepoint " + ectCodepoint);
        }
        if (controlPacketEcn < 0 || controlPacketEcn > 3) {
            throw new IllegalArgumentException("an ECN codepoint is 0 to 3, not " + controlPacketEcn);
        }
        if (controlPacketEcn == EcnCodepoint.CE) {
            throw new IllegalArgumentException("a sender never marks its own packets CE (RFC 3168)");
        }
        java.util.Objects.requireNonNull(nackLimitScope, "nackLimitScope");
        if (zeroRetryAfterWaitNs < 0) {
            throw new IllegalArgumentException("a wait is at least 0 ns");
        }
        if (pacingTickNs < 0) {
            throw new IllegalArgumentException("a pacing tick is at least 0 ns");
        }
    }

    /** What the rate limit of final NACKs counts in (clause 9.1.5; always per path and per code). */
    public enum NackLimitScope {
        /** One NACK per message per smoothed RTT, as the clause's first sentence says. */
        MESSAGE,
        /** One per stream: a NACK of one message may hold back that of another message of its stream. */
        STREAM,
        /** One per connection: a NACK of one message may hold back that of any other of the connection. */
        CONNECTION
    }

    public OpenChoices withEctCodepoint(final int value) {
        return new OpenChoices(
                value,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withControlPacketEcn(final int value) {
        return new OpenChoices(
                ectCodepoint,
                value,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withNackLimitScope(final NackLimitScope value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                value,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withPacingTickNs(final long value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                value,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withWindowFloorsRoundedUp(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                value,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withMessagesInterleaved(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                value,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withAnswersUnknownConnections(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                value,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withBackoffKeptWithoutProgress(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                value,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withIgnoresCongestionSignals(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                value,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withZeroRetryAfterWaitNs(final long value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                value,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withLateTailLossProbe(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                value,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withProbeDeemsNothingLost(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                value,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withRoundRobinStartsAtLastPath(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                value,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withReadResponsesOnRequestPath(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                value,
                readsCompleteAtInvalidation,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withReadsCompleteAtInvalidation(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                value,
                unhealthyPathTestedAtMaximumRto);
    }

    public OpenChoices withUnhealthyPathTestedAtMaximumRto(final boolean value) {
        return new OpenChoices(
                ectCodepoint,
                controlPacketEcn,
                nackLimitScope,
                pacingTickNs,
                windowFloorsRoundedUp,
                messagesInterleaved,
                answersUnknownConnections,
                backoffKeptWithoutProgress,
                ignoresCongestionSignals,
                zeroRetryAfterWaitNs,
                lateTailLossProbe,
                probeDeemsNothingLost,
                roundRobinStartsAtLastPath,
                readResponsesOnRequestPath,
                readsCompleteAtInvalidation,
                value);
    }
}

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
 * @param nackCumulativeTakenAsAck whether a NACK's cumulative psn field is taken as an ACK without SACK bits rather than
 *                              left to the ACK that follows (clause 9.1.8, freedom F-21)
 * @param entropyChangedAtIdle   whether a path takes a new entropy value each time it sends a new PSN with none
 *                              outstanding, as flowlet switching does, rather than keeping its value until a timeout or
 *                              a tail-loss probe re-paths it (clause 4.1.4, freedom F-1)
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
        boolean unhealthyPathTestedAtMaximumRto,
        boolean nackCumulativeTakenAsAck,
        boolean entropyChangedAtIdle) {

    /** What the standard configuration chooses: the defaults of {@link Builder}. */
    public static final OpenChoices STANDARD = new Builder().build();

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

    /** A builder starting from these choices. */
    public Builder toBuilder() {
        final Builder b = new Builder();
        b.ectCodepoint = ectCodepoint;
        b.controlPacketEcn = controlPacketEcn;
        b.nackLimitScope = nackLimitScope;
        b.pacingTickNs = pacingTickNs;
        b.windowFloorsRoundedUp = windowFloorsRoundedUp;
        b.messagesInterleaved = messagesInterleaved;
        b.answersUnknownConnections = answersUnknownConnections;
        b.backoffKeptWithoutProgress = backoffKeptWithoutProgress;
        b.ignoresCongestionSignals = ignoresCongestionSignals;
        b.zeroRetryAfterWaitNs = zeroRetryAfterWaitNs;
        b.lateTailLossProbe = lateTailLossProbe;
        b.probeDeemsNothingLost = probeDeemsNothingLost;
        b.roundRobinStartsAtLastPath = roundRobinStartsAtLastPath;
        b.readResponsesOnRequestPath = readResponsesOnRequestPath;
        b.readsCompleteAtInvalidation = readsCompleteAtInvalidation;
        b.unhealthyPathTestedAtMaximumRto = unhealthyPathTestedAtMaximumRto;
        b.nackCumulativeTakenAsAck = nackCumulativeTakenAsAck;
        b.entropyChangedAtIdle = entropyChangedAtIdle;
        return b;
    }

    /** Builds {@link OpenChoices}; every choice starts as the standard configuration takes it. */
    public static final class Builder {
        private int ectCodepoint = EcnCodepoint.ECT_0;
        private int controlPacketEcn = EcnCodepoint.NOT_ECT;
        private NackLimitScope nackLimitScope = NackLimitScope.MESSAGE;
        private long pacingTickNs = 0;
        private boolean windowFloorsRoundedUp = false;
        private boolean messagesInterleaved = false;
        private boolean answersUnknownConnections = true;
        private boolean backoffKeptWithoutProgress = false;
        private boolean ignoresCongestionSignals = false;
        private long zeroRetryAfterWaitNs = 0;
        private boolean lateTailLossProbe = false;
        private boolean probeDeemsNothingLost = false;
        private boolean roundRobinStartsAtLastPath = false;
        private boolean readResponsesOnRequestPath = false;
        private boolean readsCompleteAtInvalidation = false;
        private boolean unhealthyPathTestedAtMaximumRto = false;
        private boolean nackCumulativeTakenAsAck = false;
        private boolean entropyChangedAtIdle = false;

        public Builder ectCodepoint(final int value) {
            this.ectCodepoint = value;
            return this;
        }

        public Builder controlPacketEcn(final int value) {
            this.controlPacketEcn = value;
            return this;
        }

        public Builder nackLimitScope(final NackLimitScope value) {
            this.nackLimitScope = value;
            return this;
        }

        public Builder pacingTickNs(final long value) {
            this.pacingTickNs = value;
            return this;
        }

        public Builder windowFloorsRoundedUp(final boolean value) {
            this.windowFloorsRoundedUp = value;
            return this;
        }

        public Builder messagesInterleaved(final boolean value) {
            this.messagesInterleaved = value;
            return this;
        }

        public Builder answersUnknownConnections(final boolean value) {
            this.answersUnknownConnections = value;
            return this;
        }

        public Builder backoffKeptWithoutProgress(final boolean value) {
            this.backoffKeptWithoutProgress = value;
            return this;
        }

        public Builder ignoresCongestionSignals(final boolean value) {
            this.ignoresCongestionSignals = value;
            return this;
        }

        public Builder zeroRetryAfterWaitNs(final long value) {
            this.zeroRetryAfterWaitNs = value;
            return this;
        }

        public Builder lateTailLossProbe(final boolean value) {
            this.lateTailLossProbe = value;
            return this;
        }

        public Builder probeDeemsNothingLost(final boolean value) {
            this.probeDeemsNothingLost = value;
            return this;
        }

        public Builder roundRobinStartsAtLastPath(final boolean value) {
            this.roundRobinStartsAtLastPath = value;
            return this;
        }

        public Builder readResponsesOnRequestPath(final boolean value) {
            this.readResponsesOnRequestPath = value;
            return this;
        }

        public Builder readsCompleteAtInvalidation(final boolean value) {
            this.readsCompleteAtInvalidation = value;
            return this;
        }

        public Builder unhealthyPathTestedAtMaximumRto(final boolean value) {
            this.unhealthyPathTestedAtMaximumRto = value;
            return this;
        }

        public Builder nackCumulativeTakenAsAck(final boolean value) {
            this.nackCumulativeTakenAsAck = value;
            return this;
        }

        public Builder entropyChangedAtIdle(final boolean value) {
            this.entropyChangedAtIdle = value;
            return this;
        }

        public OpenChoices build() {
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
                    unhealthyPathTestedAtMaximumRto,
                    nackCumulativeTakenAsAck,
                    entropyChangedAtIdle);
        }
    }
}

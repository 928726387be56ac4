package org.mrconf.transport;

import org.mrconf.net.EcnCodepoint;

/**
 * Choices the Open Draft leaves to the device (its implementation freedoms, Table 12-3) that nothing declares and the
 * standard configuration takes one way ({@link #STANDARD}). The legal variants of {@code org.mrconf.variant} take them
 * the other way, so that the suite is shown to accept either.
 *
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
 */
public record OpenChoices(
        int controlPacketEcn,
        NackLimitScope nackLimitScope,
        long pacingTickNs,
        boolean windowFloorsRoundedUp,
        boolean messagesInterleaved) {

    /** What the standard configuration chooses. */
    public static final OpenChoices STANDARD =
            new OpenChoices(EcnCodepoint.NOT_ECT, NackLimitScope.MESSAGE, 0, false, false);

    public OpenChoices {
        if (controlPacketEcn < 0 || controlPacketEcn > 3) {
            throw new IllegalArgumentException("an ECN codepoint is 0 to 3, not " + controlPacketEcn);
        }
        if (controlPacketEcn == EcnCodepoint.CE) {
            throw new IllegalArgumentException("a sender never marks its own packets CE (RFC 3168)");
        }
        java.util.Objects.requireNonNull(nackLimitScope, "nackLimitScope");
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

    public OpenChoices withControlPacketEcn(final int codepoint) {
        return new OpenChoices(codepoint, nackLimitScope, pacingTickNs, windowFloorsRoundedUp, messagesInterleaved);
    }

    public OpenChoices withNackLimitScope(final NackLimitScope scope) {
        return new OpenChoices(controlPacketEcn, scope, pacingTickNs, windowFloorsRoundedUp, messagesInterleaved);
    }

    public OpenChoices withPacingTickNs(final long tickNs) {
        return new OpenChoices(controlPacketEcn, nackLimitScope, tickNs, windowFloorsRoundedUp, messagesInterleaved);
    }

    public OpenChoices withWindowFloorsRoundedUp(final boolean roundedUp) {
        return new OpenChoices(controlPacketEcn, nackLimitScope, pacingTickNs, roundedUp, messagesInterleaved);
    }

    public OpenChoices withMessagesInterleaved(final boolean interleaved) {
        return new OpenChoices(controlPacketEcn, nackLimitScope, pacingTickNs, windowFloorsRoundedUp, interleaved);
    }
}

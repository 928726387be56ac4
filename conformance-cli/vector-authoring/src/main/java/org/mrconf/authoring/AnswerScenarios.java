package org.mrconf.authoring;

import static org.mrconf.authoring.Scenarios.FOREIGN_KEY;
import static org.mrconf.authoring.Scenarios.hex;
import static org.mrconf.authoring.Scenarios.pattern;
import static org.mrconf.authoring.Scenarios.target;
import static org.mrconf.authoring.Scenarios.write;

import java.util.Arrays;
import java.util.List;

/**
 * The built-in scenarios that judge every ACK and NACK the DUT sends as a receiver, not one of them: the NACK of a
 * rejected packet before any ACK reporting its PSN (clause 9.1.6), a rate hint in every kind of ACK (8.2.3), and no ACK
 * that acknowledges more in-order packets than the coalescing count (8.1.4). See
 * {@link Scenarios} for the placeholders replay rewrites.
 */
final class AnswerScenarios {
    private AnswerScenarios() {}

    static List<Scenario> all() {
        return List.of(nackBeforeAck(), rateHintInEveryAck(), ackCoalescingBounded());
    }

    /** In-order packets without ACK_REQUEST, sent as fast as the tester can: eight times the default coalescing count. */
    private static final int COALESCED_RUN = 128;

    /**
     * Clause 8.1.4: 128 one-packet WRITEs of 16 bytes, in order and none asking for an ACK, sent as fast as the tester
     * can, so that a DUT that waits for its ACK delay instead of its coalescing count gathers more than the count into
     * one ACK whenever they come in faster than that delay. No ACK may advance the cumulative PSN by more than the
     * declared count; the ACK delay itself is timing, which {@code AcknowledgementCase.ackDelayIsBounded} judges.
     */
    private static Scenario ackCoalescingBounded() {
        final Scenario scenario = target(new Scenario(
                "8.1.4/ack-coalescing-count-bounded",
                "valid",
                "Ensure that the DUT, receiving 128 one-packet WRITEs in order without ACK_REQUEST as fast as the"
                        + " tester can send them, sends no ACK that advances the cumulative PSN by more than its"
                        + " declared ACK coalescing count (16 when it declares none), acknowledges all 128 and places"
                        + " them",
                "8.1.4"));
        final byte[] all = new byte[COALESCED_RUN * 16];
        for (int i = 0; i < COALESCED_RUN; i++) {
            final byte[] payload = pattern(16, 94 + i);
            System.arraycopy(payload, 0, all, i * 16, 16);
            scenario.send(
                    0,
                    write(i, i, 0, 16, payload)
                            .remoteAddress(Scenarios.TARGET_ADDRESS + 16L * i)
                            .flags(0)
                            .build());
        }
        return scenario.expectAckCoalescing()
                .expectAck(0, COALESCED_RUN, 1)
                .never("NACK")
                .expectRegionSha256("target", 0, all.length, Scenarios.sha256(all));
    }

    private static Scenario nackBeforeAck() {
        final byte[] payload = pattern(64, 91);
        final Scenario scenario = target(new Scenario(
                        "9.1.6/nack-before-the-ack-of-its-psn",
                        "invalid",
                        "Ensure that the DUT NACKs a WRITE with a foreign key REMOTE_ACCESS before any ACK that reports"
                                + " its PSN as received, with a cumulative psn that does not cover it, while the next"
                                + " WRITE is placed and acknowledged past both",
                        "9.1.6",
                        "9.1.4"))
                .send(
                        0,
                        write(0, 0, 0, 64, pattern(64, 92))
                                .remoteKey(FOREIGN_KEY)
                                .build())
                .send(0, write(1, 1, 0, 64, payload).build())
                .expectNackNaming(0, "REMOTE_ACCESS", 0, 0, 0, 0)
                .expectAck(0, 2, 1)
                .expectRegion("target", 0, hex(payload));
        scenario.expect.put("nacksFirst", true);
        return scenario;
    }

    private static Scenario rateHintInEveryAck() {
        final byte[] message = pattern(4 * 256, 93);
        final Scenario scenario = target(new Scenario(
                "8.2.3/rate-hint-in-every-ack",
                "valid",
                "Ensure that every ACK the DUT sends carries a rate hint other than 0 Mbit/s: the ACK of a packet"
                        + " asking for one, of a gap, of a duplicate and of the packet that fills the gap",
                "8.2.3"));
        scenario.profiles.add("congestion");
        final byte[][] segments = new byte[4][];
        for (int i = 0; i < 4; i++) {
            final byte[] payload = Arrays.copyOfRange(message, i * 256, i * 256 + 256);
            segments[i] = write(i, 0, i * 256, message.length, payload).build();
        }
        scenario.send(0, segments[0]); // in order; every packet asks for an ACK (clause 8.1.3)
        scenario.send(0, segments[2]); // a gap (clause 8.1.2)
        scenario.send(0, segments[2]); // a duplicate
        scenario.send(0, segments[1]);
        scenario.send(0, segments[3]);
        scenario.expect.put("rateHintInEveryAck", true);
        return scenario.expectResponse("ACK", 3)
                .expectAck(0, 4, 1)
                .expectRegionSha256("target", 0, message.length, Scenarios.sha256(message));
    }
}

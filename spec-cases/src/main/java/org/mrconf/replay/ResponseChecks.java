package org.mrconf.replay;

import java.util.List;
import java.util.Locale;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.PacketFlags;

/**
 * What a vector expects of the packets the DUT sent during its replay (the sidecar's {@code expect.responses} and
 * {@code expect.never}, and where they went): each broken expectation becomes one failure line naming the expected and
 * the actual packets. {@link Arrivals} and {@link SenderSteps} use the same matching while they wait.
 */
final class ResponseChecks {
    private ResponseChecks() {}

    /** Clauses 4.1.3 and 4.2.3: everything the DUT sent went to the tester's MetaRoCE port. */
    static void checkToTesterPort(
            final List<ReceivedPacket> answers, final int testerPort, final List<String> failures) {
        for (final ReceivedPacket answer : answers) {
            if (answer.captured().destinationPort() != testerPort) {
                failures.add("the DUT sent " + answer + " to UDP port "
                        + answer.captured().destinationPort() + ", not to the tester's port " + testerPort);
                return;
            }
        }
    }

    static void checkResponses(
            final Sidecar.Expect expect,
            final List<ReceivedPacket> answers,
            final long initialPsn,
            final List<String> failures) {
        for (final Sidecar.ResponseExpectation response : expect.responses()) {
            final long count = answers.stream()
                    .filter(p -> matches(response, p, initialPsn))
                    .count();
            if (count < response.atLeast()) {
                failures.add(String.format(
                        "expected at least %d %s from the DUT, got %d (the DUT sent: %s)",
                        response.atLeast(), describe(response), count, summary(answers)));
            }
            if (response.atMost().isPresent()) {
                final long fresh = answers.stream()
                        .filter(p -> matches(response, p, initialPsn))
                        .filter(p -> p.data()
                                .map(d -> (d.header().flags() & PacketFlags.RETRANSMISSION) == 0)
                                .orElse(true))
                        .count();
                if (fresh > response.atMost().getAsInt()) {
                    failures.add(String.format(
                            "expected at most %d %s from the DUT (first transmissions), got %d (the DUT sent: %s)",
                            response.atMost().getAsInt(), describe(response), fresh, summary(answers)));
                }
            }
        }
        for (final Sidecar.ResponseExpectation never : expect.never()) {
            final List<ReceivedPacket> forbidden =
                    answers.stream().filter(p -> matches(never, p, initialPsn)).toList();
            if (!forbidden.isEmpty()) {
                failures.add("expected no " + describe(never) + " from the DUT, got " + forbidden.size() + ": "
                        + forbidden.get(0));
            }
        }
    }

    static boolean matches(
            final Sidecar.ResponseExpectation expectation, final ReceivedPacket packet, final long initialPsn) {
        if (packet.opcode().isEmpty() || !packet.opcode().get().name().equals(expectation.opcode())) {
            return false;
        }
        final var header =
                packet.ack().map(AckPacket::header).or(() -> packet.nack().map(NackPacket::header));
        if (expectation.path().isPresent()
                && (header.isEmpty()
                        || header.get().pathId() != expectation.path().getAsLong())) {
            return false;
        }
        if (expectation.cumulativePsnOffset().isPresent()
                && packet.ack()
                        .map(AckPacket::cumulativePsn)
                        .or(() -> packet.nack().map(NackPacket::cumulativePsn))
                        .map(psn -> ((psn - initialPsn) & 0xFFFF_FFFFL)
                                != expectation.cumulativePsnOffset().getAsLong())
                        .orElse(true)) {
            return false;
        }
        if (expectation.rejected().isPresent()
                && !packet.nack()
                        .map(n -> names(n, expectation.rejected().get(), initialPsn))
                        .orElse(false)) {
            return false;
        }
        if (expectation.echoedTimestamp().isPresent()
                && !packet.ack()
                        .map(a -> a.echoedTimestamp()
                                == expectation.echoedTimestamp().getAsLong())
                        .orElse(false)) {
            return false;
        }
        if (expectation.ceCount().isPresent()
                && !packet.ack()
                        .map(a -> a.ceCount() == expectation.ceCount().getAsLong())
                        .orElse(false)) {
            return false;
        }
        if (expectation.sack().isPresent()
                && !packet.ack()
                        .map(a -> java.util.Arrays.stream(a.sackBits())
                                .boxed()
                                .toList()
                                .equals(expectation.sack().get()))
                        .orElse(false)) {
            return false;
        }
        return expectation.nackCode().isEmpty()
                || packet.nack()
                        .map(n -> n.code().name().equals(expectation.nackCode().get()))
                        .orElse(false);
    }

    /** Whether {@code nack} names the rejected packet {@code rejected}: its PSN, stream and MSN (Table 5-10). */
    static boolean names(final NackPacket nack, final Sidecar.Rejected rejected, final long initialPsn) {
        return ((nack.header().psn() - initialPsn) & 0xFFFF_FFFFL) == rejected.psnOffset()
                && nack.streamId() == rejected.stream()
                && nack.messageSequenceNumber() == rejected.msn();
    }

    static String describe(final Sidecar.ResponseExpectation response) {
        final StringBuilder text = new StringBuilder(response.opcode());
        response.path().ifPresent(p -> text.append(" on path ").append(p));
        response.cumulativePsnOffset()
                .ifPresent(c -> text.append(" with cumulative PSN base+").append(c));
        response.nackCode().ifPresent(c -> text.append(" with code ").append(c));
        return text.toString()
                        .toLowerCase(Locale.ROOT)
                        .replace(response.opcode().toLowerCase(Locale.ROOT), response.opcode())
                + response.sack().map(bits -> " with SACK bits " + bits).orElse("")
                + (response.echoedTimestamp().isPresent()
                        ? " echoing timestamp " + response.echoedTimestamp().getAsLong()
                        : "")
                + (response.ceCount().isPresent()
                        ? " with CE count " + response.ceCount().getAsLong()
                        : "")
                + response.rejected()
                        .map(r -> String.format(
                                " naming PSN base+%d, stream %d, MSN %d", r.psnOffset(), r.stream(), r.msn()))
                        .orElse("");
    }

    static String summary(final List<ReceivedPacket> answers) {
        if (answers.isEmpty()) {
            return "nothing";
        }
        return answers.stream()
                        .limit(8)
                        .map(ReceivedPacket::toString)
                        .reduce((a, b) -> a + "; " + b)
                        .orElse("")
                + (answers.size() > 8 ? "; and " + (answers.size() - 8) + " more" : "");
    }
}

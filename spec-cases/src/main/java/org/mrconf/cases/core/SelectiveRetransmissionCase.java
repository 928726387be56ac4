package org.mrconf.cases.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;

/**
 * The DUT as a sender under loss, MetaRoCE's central claim: when an ACK of a path shows a gap, the DUT
 * resends exactly the missing PSN, on the same path, flagged as a retransmission, with the original's
 * fields and payload, and nothing the ACK reported received; and it completes the WRITE only once every
 * PSN is acknowledged.
 *
 * <p>The case never races the DUT's retransmission timer, which it does not control. It first stretches every path's
 * RTO (ACKs echoing a timestamp {@link #AGE} older than their own, as {@link GapResendCase} does; every later ACK echoes
 * as old a one), so that after the ACK that shows the gap, and that acknowledges a PSN for the first time and so
 * restarts the path's timer (clause 6.6.2), no timeout can resend anything for the stretched RTO less the tolerance:
 * a resend of the hole later than that fails (the device left the loss to its timer), unless a stall of the tester's
 * host excuses it. The packet it reports lost is not the oldest one of its path, so a timeout before the ACK would have
 * resent another PSN first (clause 6.6.2: at least the oldest); any retransmission on the path before the gap-driven
 * one means a timer fired and makes the attempt undecidable, as does, on a path the stretch did not reach or where the
 * declared maximum RTO leaves no room above the tolerance, a resend later than the declared minimum RTO: the case then
 * acknowledges everything, lets the WRITE complete and tries again with a new message, and reports INCONCLUSIVE if no
 * attempt was clean.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Selective retransmission")
class SelectiveRetransmissionCase {
    private static final long REMOTE_ADDRESS = 0x00AB_0000L;
    private static final long REMOTE_KEY = 0x77;
    /** Five packets, so that one of two paths carries at least three. */
    private static final int FULL_PACKETS = 4;

    private static final int ATTEMPTS = 25;

    /** The echo age that stretches every path's RTO, as in {@link GapResendCase}. */
    private static final Duration AGE = Duration.ofMillis(200);

    private static final long STRETCH_WR = 99;

    @Test
    @DisplayName("a gap in a path's SACK bitmap makes the DUT resend exactly the missing packet on that path")
    @Verifies("6.3.1")
    @Verifies("6.4.1")
    @Verifies("6.4.2")
    @Verifies("7.5.4")
    @Verifies("4.1.9")
    void resendsExactlyTheMissingPacket(final Testbed testbed) throws Exception {
        final var declared = testbed.profile().parameters().congestion();
        if (!testbed.profile().claims(org.mrconf.catalogue.Profile.CONGESTION)
                && (declared.initialPathWindow() == 1 || declared.initialConnectionWindow() == 1)) {
            // A gap needs a later PSN received while an earlier one is missing: two packets in flight on the path,
            // which declared windows of one packet that never grow (10.1.6) never allow.
            throw org.mrconf.cases.NotApplicable.because("the device's configuration: its declared first windows ("
                    + declared.initialPathWindow() + " per path, " + declared.initialConnectionWindow() + " per"
                    + " connection) hold one packet in flight, and a device without the congestion profile keeps them,"
                    + " so no ACK can show a gap; first windows of two packets or more would exercise it");
        }
        // Stretch every path's RTO (ACKs echoing an old timestamp, as GapResendCase does), so that a resend of the hole
        // that comes later than the declared minimum RTO can still be told from a timeout's: none can come before the
        // stretched RTO, less the tolerance, after the ACK that showed the gap and restarted the path's timer (6.6.2).
        final int stretchMark = testbed.peer().mark();
        final int segment = testbed.connection().maxPayload(Opcode.WRITE);
        CaseSteps.stretchTheTimer(
                testbed,
                AGE,
                STRETCH_WR,
                Testbed.BASE,
                2L * segment * testbed.connection().spec().paths());
        final Set<Integer> stretched =
                testbed
                        .peer()
                        .recorder()
                        .matching(stretchMark, PacketMatcher.expect().data())
                        .stream()
                        .map(p -> p.data().orElseThrow().header().pathId())
                        .collect(Collectors.toSet());
        final List<String> undecided = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            final Optional<String> why = attempt(testbed, attempt, stretched);
            if (why.isEmpty()) {
                return;
            }
            undecided.add("attempt " + (attempt + 1) + ": " + why.get());
        }
        throw Inconclusive.because(
                "no attempt could tell a gap-driven resend from a timeout's:\n  " + String.join("\n  ", undecided));
    }

    /** One attempt with a new message; empty when it decided (passed), else why it could not decide. */
    private static Optional<String> attempt(final Testbed testbed, final int attempt, final Set<Integer> stretched)
            throws Exception {
        final long remoteAddress = REMOTE_ADDRESS + (long) attempt * 0x1_0000L;
        final long wrId = 7 + attempt;
        final int payload = testbed.connection().maxPayload(Opcode.WRITE);
        final int length = FULL_PACKETS * payload + payload / 2;
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(length, 11 + attempt));
        final int mark = testbed.peer().mark();

        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), Testbed.BASE, length),
                        remoteAddress,
                        REMOTE_KEY);

        final Optional<List<DataPacket>> firstTransmissions = awaitFirstTransmissions(testbed, mark, remoteAddress);
        if (firstTransmissions.isEmpty()) {
            drain(testbed, mark, remoteAddress, wrId, length);
            return Optional.of("a retransmission timer fired before the DUT had sent the whole message");
        }
        final List<DataPacket> sent = firstTransmissions.get();
        for (final DataPacket packet : sent) {
            final boolean last = packet.messageOffset() + packet.payloadLength() == length;
            assertThat(packet.payloadLength())
                    .as("4.1.9: every packet but the last is full")
                    .isEqualTo(last ? length - FULL_PACKETS * payload : payload);
        }
        final Map<Integer, List<DataPacket>> byPath = new TreeMap<>(
                sent.stream().collect(Collectors.groupingBy(p -> p.header().pathId())));
        final Optional<List<DataPacket>> lossy =
                byPath.values().stream().filter(list -> list.size() >= 3).findFirst();
        if (lossy.isEmpty()) {
            // How the DUT spreads packets over paths is its choice; the case needs three on one path.
            complete(testbed, byPath, old(sent.get(0).transmitTimestamp()), wrId, length);
            return Optional.of("no path carried three packets: " + counts(byPath));
        }
        final List<DataPacket> onPath = lossy.get().stream()
                .sorted(Comparator.comparingLong(p -> p.header().psn()))
                .toList();
        // Report the second packet lost: the first is acknowledged by the cumulative PSN, the rest by SACK bits.
        final DataPacket missing = onPath.get(1);
        final int path = missing.header().pathId();
        final long missingPsn = missing.header().psn();
        final int[] receivedBits = new int[onPath.size() - 2];
        for (int i = 2; i < onPath.size(); i++) {
            receivedBits[i - 2] = (int) ((onPath.get(i).header().psn() - missingPsn) & 0xFFFF_FFFFL);
        }
        final PacketMatcher pathResends = writes(remoteAddress).retransmission().path(path);
        if (!testbed.peer().recorder().matching(mark, pathResends).isEmpty()) {
            complete(testbed, byPath, old(missing.transmitTimestamp()), wrId, length);
            return Optional.of("path " + path + "'s retransmission timer fired before the tester's ACK");
        }
        final int gapMark = testbed.peer().mark();
        testbed.peer()
                .send(ack(path, missingPsn, old(onPath.get(0).transmitTimestamp()))
                        .sackBits(receivedBits));
        // Read once the ACK has left: the resend is judged against an upper bound from it, and the tester's own thread
        // may be held back while it builds the ACK (a loaded host), which is no lateness of the DUT's.
        final long ackSentNs = testbed.peer().link().nowNs();

        final ReceivedPacket resentPacket = testbed.peer().await(gapMark, pathResends.psn(missingPsn), Testbed.WAIT);
        final DataPacket resent = resentPacket.data().orElseThrow();
        final Duration minRto = testbed.profile().parameters().timers().minRto();
        final long afterAckNs = resentPacket.receivedNs() - ackSentNs;
        final List<ReceivedPacket> earlier = testbed.peer().recorder().matching(mark, pathResends).stream()
                .filter(p -> p.index() < resentPacket.index())
                .toList();
        // No timeout of a stretched path can come before this after the ACK that restarted its timer.
        final long toleranceNs =
                testbed.profile().parameters().timers().tolerance().toNanos();
        final long boundNs = stretched.contains(path)
                ? CaseSteps.stretchedRtoFloor(testbed, AGE).toNanos() - toleranceNs
                : 0;
        if (earlier.isEmpty() && afterAckNs >= minRto.toNanos() && boundNs > 4 * toleranceNs) {
            if (afterAckNs >= boundNs) {
                StallAllowance.excuse(
                        testbed.stalls(),
                        "6.3.1: the resend of the hole",
                        StallAllowance.overNs(afterAckNs, boundNs),
                        ackSentNs,
                        ackSentNs + afterAckNs);
                throw new AssertionError(String.format(
                        "6.3.1, 6.4.1: the ACK reported PSN %d of path %d missing and %d later PSN(s) received, so the"
                                + " DUT must deem it lost and resend it; it came %d ms after the ACK, later than its"
                                + " timer, stretched to at least %d ms and restarted by that ACK, could have fired"
                                + " (less the tolerance %d ms): the loss was left to the timeout",
                        missingPsn,
                        path,
                        receivedBits.length,
                        afterAckNs / 1_000_000,
                        (boundNs + toleranceNs) / 1_000_000,
                        toleranceNs / 1_000_000));
            }
        } else if (!earlier.isEmpty() || afterAckNs >= minRto.toNanos()) {
            complete(testbed, byPath, old(resent.transmitTimestamp()), wrId, length);
            return Optional.of(
                    !earlier.isEmpty()
                            ? "path " + path + " retransmitted " + earlier.size()
                                    + " packet(s) around the tester's ACK: a" + " timer fired"
                            : "the resend came " + afterAckNs / 1000
                                    + " us after the ACK, not before the declared minimum" + " RTO of "
                                    + minRto.toNanos() / 1000 + " us: a timeout could have sent it");
        }
        assertThat(resent.header().pathId()).as("6.4.2: same path").isEqualTo(path);
        assertThat(resent.header().flags() & PacketFlags.RETRANSMISSION)
                .as("6.4.2: RETRANSMISSION flag")
                .isNotZero();
        assertThat(resent.messageOffset()).as("6.4.2: message offset").isEqualTo(missing.messageOffset());
        assertThat(resent.messageSequenceNumber()).as("6.4.2: MSN").isEqualTo(missing.messageSequenceNumber());
        assertThat(resent.messageLength()).as("6.4.2: message length").isEqualTo(missing.messageLength());
        assertThat(resent.remoteAddress()).as("6.4.2: remote address").isEqualTo(missing.remoteAddress());
        assertThat(resent.payload()).as("6.4.2: payload").isEqualTo(missing.payload());
        // Once the gap-driven resend is seen, the DUT has processed the ACK: from then on it must not resend
        // what the ACK reported received, by gap or by timeout (6.4.1).
        final Set<Long> reported = onPath.stream()
                .filter(p -> p != missing)
                .map(p -> p.header().psn())
                .collect(Collectors.toSet());
        final int afterResend = testbed.peer().mark();
        testbed.peer()
                .assertNone(
                        afterResend,
                        pathResends.where(
                                "a PSN the ACK reported received",
                                DataPacket.class,
                                p -> reported.contains(p.header().psn())),
                        testbed.quiet());
        assertThat(testbed.control().pollCompletions(4, Duration.ZERO))
                .as("7.5.4: not complete while a PSN is unacknowledged")
                .isEmpty();
        complete(testbed, byPath, old(resent.transmitTimestamp()), wrId, length);
        return Optional.empty();
    }

    /**
     * Waits for every first transmission of the message; empty as soon as a retransmission of it shows up first (a
     * timer fired: what the DUT sends next is the timer's doing, not the case's). A DUT that sends neither within
     * {@link Testbed#WAIT} fails: it must send the message, and its timer must resend what is unacknowledged.
     */
    private static Optional<List<DataPacket>> awaitFirstTransmissions(
            final Testbed testbed, final int mark, final long remoteAddress) throws InterruptedException {
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        final PacketMatcher first = writes(remoteAddress).firstTransmission();
        while (true) {
            final List<ReceivedPacket> sent = testbed.peer().recorder().matching(mark, first);
            if (sent.size() >= FULL_PACKETS + 1) {
                return Optional.of(sent.subList(0, FULL_PACKETS + 1).stream()
                        .map(p -> p.data().orElseThrow())
                        .toList());
            }
            if (!testbed.peer()
                    .recorder()
                    .matching(mark, writes(remoteAddress).retransmission())
                    .isEmpty()) {
                return Optional.empty();
            }
            if (System.nanoTime() - deadline > 0) {
                // Fails with the expectation and everything the DUT did send.
                testbed.peer().recorder().awaitCount(mark, first, FULL_PACKETS + 1, Duration.ZERO);
            }
            Thread.sleep(2);
        }
    }

    /**
     * Acknowledges whatever the DUT has sent of the message, path by path, until the WRITE completes: the way out of
     * an attempt a timer disturbed, so the next one starts from a quiet connection.
     */
    private static void drain(
            final Testbed testbed, final int mark, final long remoteAddress, final long wrId, final int length)
            throws Exception {
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            final Map<Integer, List<DataPacket>> byPath =
                    new TreeMap<>(testbed.peer().recorder().matching(mark, writes(remoteAddress)).stream()
                            .map(p -> p.data().orElseThrow())
                            .collect(Collectors.groupingBy(p -> p.header().pathId())));
            for (final Map.Entry<Integer, List<DataPacket>> entry : byPath.entrySet()) {
                final DataPacket highest = entry.getValue().stream()
                        .max(Comparator.comparingLong(p -> p.header().psn()))
                        .orElseThrow();
                testbed.peer().send(ack(entry.getKey(), highest.header().psn() + 1, old(highest.transmitTimestamp())));
            }
            for (final DutCompletion completion : testbed.control().pollCompletions(16, Duration.ofMillis(50))) {
                if (completion.wrId() == wrId) {
                    assertThat(completion.status())
                            .as("7.5.4: completion status")
                            .isEqualTo(CompletionStatus.SUCCESS);
                    assertThat(completion.length())
                            .as("7.5.4: completion length")
                            .isEqualTo(length);
                    return;
                }
            }
        }
        throw new AssertionError("7.5.4: the WRITE did not complete within " + Testbed.WAIT
                + " although the tester acknowledged every packet the DUT sent");
    }

    /** Acknowledges every packet of every path and checks that the WRITE then completes, whole (7.5.4). */
    private static void complete(
            final Testbed testbed,
            final Map<Integer, List<DataPacket>> byPath,
            final long echoedTimestamp,
            final long wrId,
            final int length)
            throws Exception {
        for (final Map.Entry<Integer, List<DataPacket>> entry : byPath.entrySet()) {
            final long highest = entry.getValue().stream()
                    .mapToLong(p -> p.header().psn())
                    .max()
                    .orElseThrow();
            testbed.peer().send(ack(entry.getKey(), highest + 1, echoedTimestamp));
        }
        final DutCompletion completion = testbed.awaitCompletion(wrId);
        assertThat(completion.status()).as("7.5.4: completion status").isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).as("7.5.4: completion length").isEqualTo(length);
    }

    private static String counts(final Map<Integer, List<DataPacket>> byPath) {
        return byPath.entrySet().stream()
                .map(e -> "path " + e.getKey() + ": " + e.getValue().size())
                .collect(Collectors.joining(", "));
    }

    private static PacketMatcher writes(final long remoteAddress) {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(remoteAddress);
    }

    /** The timestamp {@link #AGE} older than {@code transmitTimestamp}: every ACK echoes one, so the RTO stays stretched. */
    private static long old(final long transmitTimestamp) {
        return (transmitTimestamp - AGE.toNanos()) & 0xFFFF_FFFFL;
    }

    private static PacketBuilder ack(final int path, final long cumulativePsn, final long echoedTimestamp) {
        return PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(path)
                .cumulativePsn(cumulativePsn)
                .echoedTimestamp(echoedTimestamp);
    }
}

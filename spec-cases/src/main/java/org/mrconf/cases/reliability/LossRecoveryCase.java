package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;

/**
 * The DUT as sender under loss (clauses 6.1.1, 6.1.2, 6.3.1, 6.4.1, 6.4.2, 7.5.4): it sends a message over two paths
 * from initial PSNs just below the wrap, and the tester answers one path with a single ACK that has several holes.
 * Every hole must be resent, exactly it, on its path, flagged, with a fresh timestamp and the original's fields, and
 * nothing the ACK reported received.
 *
 * <p>The case never races the retransmission timer: a resend caused by a timeout is indistinguishable on the wire from
 * one caused by the ACK, so it reads the DUT's {@code rto_expirations} counter before the ACK and after the resends.
 * Unchanged, every resend was the ACK's doing and the attempt decides. Changed, the attempt decides nothing, unless
 * it shows a hole first resent only after another packet had been sent twice (what a device that resends only the
 * first hole and leaves the rest to the timer does); the case tries again and fails only when that
 * pattern repeats (in two of up to six attempts).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Loss detection and selective retransmission")
class LossRecoveryCase {
    private static final long NEAR_WRAP = 0xFFFF_FFFDL;
    private static final long REMOTE_ADDRESS = 0x00C0_0000L;
    private static final long REMOTE_KEY = 0x99;
    private static final int ATTEMPTS = 6;

    /** How old a timestamp the ACKs of the window-growing traffic echo: the DUT's RTO stays far above an attempt. */
    private static final java.time.Duration GROWTH_ECHO_AGE = java.time.Duration.ofMillis(100);

    @Test
    @DisplayName("one ACK with several holes makes the DUT resend every hole, and only the holes, on their path")
    @Verifies("6.3.1")
    @Verifies("6.4.1")
    @Verifies("6.4.2")
    @Verifies("6.1.1")
    @Verifies("6.1.2")
    @Verifies("7.5.4")
    void resendsEveryHoleOfOneAck(final DeviceUnderTest dut) throws Exception {
        for (final Opcode opcode : new Opcode[] {Opcode.WRITE, Opcode.SEND}) {
            decide(dut, opcode);
        }
    }

    private static void decide(final DeviceUnderTest dut, final Opcode opcode) throws Exception {
        int violations = 0;
        final List<String> undecided = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (Testbed testbed = Testbed.open(dut, 2, 1, NEAR_WRAP, 0)) {
                final Attempt result = new Attempt(testbed, opcode, 70 + attempt).run();
                if (result.decided) {
                    return;
                }
                if (result.violation != null) {
                    violations++;
                    undecided.add(result.violation);
                    if (violations >= 2) {
                        break;
                    }
                } else {
                    undecided.add("a retransmission timeout fired during the attempt");
                }
            }
        }
        if (violations >= 2) {
            throw new AssertionError("6.3.1: " + opcode + ": in " + violations + " of " + undecided.size()
                    + " attempts a hole of the ACK was resent only after a timeout: " + undecided);
        }
        throw Inconclusive.because(
                opcode + ": every attempt overlapped a retransmission timeout of the DUT: " + undecided);
    }

    /** One message, one lossy ACK, and what the DUT did about it. */
    private static final class Attempt {
        private final Testbed testbed;
        private final Opcode opcode;
        private final long wrId;
        boolean decided;
        String violation;

        Attempt(final Testbed testbed, final Opcode opcode, final long wrId) {
            this.testbed = testbed;
            this.opcode = opcode;
            this.wrId = wrId;
        }

        private long expiriesBefore;

        /** Each path's next new PSN after the growth traffic; empty when there was none (the initial PSN). */
        private final Map<Integer, Long> nextAfterGrowth = new HashMap<>();

        /**
         * A device whose declared first windows cannot hold the message's 12 packets (section 10: as little as one
         * packet) is first driven to larger windows: a congestion-profile sender grows both windows by 1/W for every
         * packet newly acknowledged (10.1.1, 10.1.2), so a long WRITE acknowledged as it comes, echoing timestamps
         * {@link #GROWTH_ECHO_AGE} old (its RTO then stays far from the attempt), leaves room for 12. Its PSNs are
         * judged like the message's (6.1.1, across the wrap). A device without congestion keeps its declared windows:
         * too small ones leave the attempt undecidable (INCONCLUSIVE, naming them).
         */
        private void growWindows(final int count) throws Exception {
            final var declared = testbed.profile().parameters().congestion();
            final int path = declared.initialPathWindow();
            final int connection = declared.initialConnectionWindow();
            final boolean pathsHold = path <= 0 || 2L * path >= count + 2;
            final boolean connectionHolds = connection <= 0 || connection >= count;
            if (pathsHold && connectionHolds) {
                return;
            }
            if (!testbed.profile().claims(org.mrconf.catalogue.Profile.CONGESTION)) {
                throw org.mrconf.cases.NotApplicable.because("the device's configuration: the declared first windows ("
                        + path + " per path, " + connection
                        + " per connection) cannot hold the " + count + " packets of one ACK's holes, and a device"
                        + " without the congestion profile need not grow them; first windows of " + count
                        + " packets would exercise it");
            }
            final int wantedPath = count;
            final int wantedConnection = count + 2;
            final long fromPath = Math.max(1, path);
            final long fromConnection = Math.max(1, connection);
            final long acks = 2
                    * Math.max(
                            2 * (wantedPath * wantedPath - fromPath * fromPath) / 2,
                            (wantedConnection * wantedConnection - fromConnection * fromConnection) / 2);
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final long length = Math.min(acks * payload, Testbed.REGION);
            final int mark = testbed.peer().mark();
            testbed.connection().ackEchoAge(GROWTH_ECHO_AGE);
            testbed.connection().autoAck(true);
            try {
                testbed.control()
                        .postWrite(
                                CaseSteps.request(testbed, 0, wrId + 1000, Testbed.BASE, length),
                                REMOTE_ADDRESS,
                                REMOTE_KEY);
                testbed.awaitCompletion(wrId + 1000);
            } finally {
                testbed.connection().autoAck(false);
                testbed.connection().ackEchoAge(java.time.Duration.ZERO);
            }
            final List<ReceivedPacket> growth = testbed.peer()
                    .recorder()
                    .matching(
                            mark,
                            PacketMatcher.expect()
                                    .data()
                                    .opcode(Opcode.WRITE)
                                    .connection(Testbed.TESTER_CONNECTION)
                                    .firstTransmission());
            assertPsnAssignment(growth);
            for (final ReceivedPacket packet : growth) {
                final DataPacket data = packet.data().orElseThrow();
                nextAfterGrowth.put(
                        data.header().pathId(), Psn.add(data.header().psn(), 1));
            }
            testbed.peer().recorder().awaitQuiet(java.time.Duration.ofMillis(20), Testbed.WAIT);
        }

        Attempt run() throws Exception {
            growWindows(12);
            expiriesBefore = rtoExpirations();
            final int payload = testbed.connection().maxPayload(opcode);
            final int length = 12 * payload - payload / 3;
            CaseSteps.stage(testbed, Testbed.BASE, length, wrId);
            final int start = testbed.peer().mark();
            if (opcode == Opcode.SEND) {
                testbed.control().postSend(CaseSteps.request(testbed, 0, wrId, Testbed.BASE, length));
            } else {
                testbed.control()
                        .postWrite(
                                CaseSteps.request(testbed, 0, wrId, Testbed.BASE, length), REMOTE_ADDRESS, REMOTE_KEY);
            }
            final int count = CaseSteps.segments(length, payload);
            final List<ReceivedPacket> sent = firstTransmissions(start, count);
            assertPsnAssignment(sent);

            final Map<Integer, List<DataPacket>> byPath = sent.stream()
                    .map(p -> p.data().orElseThrow())
                    .collect(Collectors.groupingBy(p -> p.header().pathId()));
            final List<DataPacket> lossy =
                    byPath.values().stream().max(Comparator.comparingInt(List::size)).orElseThrow().stream()
                            .sorted(Comparator.comparingLong(
                                    p -> Psn.distance(NEAR_WRAP, p.header().psn())))
                            .toList();
            if (lossy.size() < 4) {
                throw Inconclusive.because("no path carried four packets of a " + count + "-packet message: " + byPath);
            }
            final int path = lossy.get(0).header().pathId();
            // Holes at even distances from the end: the last packet is reported received, so every hole is followed
            // by a received PSN and all of them are deemed lost (6.3.1).
            final List<DataPacket> holes = new ArrayList<>();
            final List<DataPacket> reported = new ArrayList<>();
            for (int i = 0; i < lossy.size(); i++) {
                ((lossy.size() - 1 - i) % 2 == 0 ? reported : holes).add(lossy.get(i));
            }
            // The other path is acknowledged completely.
            for (final Map.Entry<Integer, List<DataPacket>> entry : byPath.entrySet()) {
                if (entry.getKey() != path) {
                    testbed.peer().send(fullAck(entry.getValue()));
                }
            }
            final long cumulative = holes.get(0).header().psn();
            final long[] received =
                    reported.stream().mapToLong(p -> p.header().psn()).toArray();
            final DataPacket highest = reported.get(reported.size() - 1);

            final long timeoutsBefore = rtoExpirations();
            if (timeoutsBefore > 0) {
                return this; // a timeout before the ACK: every hole is resent anyway, so the attempt decides nothing
            }
            final int mark = testbed.peer().mark();
            testbed.peer().send(CaseSteps.ack(path, cumulative, highest.transmitTimestamp(), received));

            final Map<Long, ReceivedPacket> firstResend = new HashMap<>();
            for (final DataPacket hole : holes) {
                final ReceivedPacket resend = testbed.peer().await(mark, sameSegment(hole), Testbed.WAIT);
                firstResend.put(hole.messageOffset(), resend);
            }
            final List<ReceivedPacket> snapshot = testbed.peer().recorder().since(mark);
            final boolean timeout = rtoExpirations() != timeoutsBefore;

            for (final DataPacket hole : holes) {
                assertSameAsOriginal(hole, firstResend.get(hole.messageOffset()));
            }
            if (!timeout) {
                for (final DataPacket got : reported) {
                    assertThat(snapshot.stream().filter(sameSegment(got)).toList())
                            .as(
                                    "6.4.1: PSN %d was reported received by the ACK, must not be resent (no go-back-N)",
                                    got.header().psn())
                            .isEmpty();
                }
                decided = true;
            } else {
                violation = resentOnlyAfterARepeat(snapshot, holes);
            }

            assertThat(testbed.control().pollCompletions(4, Duration.ZERO))
                    .as("7.5.4: no completion while PSNs of the message are unacknowledged")
                    .isEmpty();
            testbed.peer().send(fullAck(lossy));
            final DutCompletion completion = new CaseSteps.CompletionLog(testbed.control())
                    .awaitWrId(wrId, "7.5.4: once every PSN is acknowledged");
            assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
            assertThat(completion.length()).isEqualTo(length);
            return this;
        }

        /**
         * The message's first transmissions. A DUT whose timer fires before it has sent them all may shrink its window
         * to one packet (10.1.3) and never send the rest while the tester stays silent: that decides nothing here.
         */
        private List<ReceivedPacket> firstTransmissions(final int start, final int count) throws Exception {
            try {
                return testbed.peer().recorder().awaitCount(start, ours().firstTransmission(), count, Testbed.WAIT);
            } catch (final AssertionError e) {
                if (rtoExpirations() > 0
                        && !testbed.peer().recorder().since(start).isEmpty()) {
                    throw Inconclusive.because("the DUT's retransmission timer fired before it had sent the "
                            + count + " packets of the message, so the case could not shape the loss it needs: "
                            + e.getMessage().lines().findFirst().orElse(""));
                }
                throw e;
            }
        }

        /** 6.1.1: each path's first transmissions start at the initial PSN and step by one, across the wrap. */
        private void assertPsnAssignment(final List<ReceivedPacket> sent) {
            final Map<Integer, Long> next = new HashMap<>(nextAfterGrowth);
            for (final ReceivedPacket packet : sent) {
                final DataPacket data = packet.data().orElseThrow();
                final int path = data.header().pathId();
                assertThat(path).as("6.1.1: a path of the connection").isBetween(0, 1);
                final long expected = next.getOrDefault(path, NEAR_WRAP);
                assertThat(data.header().psn())
                        .as("6.1.1/6.1.2: PSN of the next new packet on path %d", path)
                        .isEqualTo(expected);
                next.put(path, Psn.add(expected, 1));
            }
        }

        /** 6.4.2: the resend is the original packet again, flagged, with a fresh timestamp, on its path. */
        private void assertSameAsOriginal(final DataPacket original, final ReceivedPacket received) {
            final DataPacket resend = received.data().orElseThrow();
            final String what = "6.4.2: the resend of offset " + original.messageOffset();
            assertThat(resend.header().pathId())
                    .as(what + ": same path id")
                    .isEqualTo(original.header().pathId());
            assertThat(resend.header().psn())
                    .as(what + ": same PSN")
                    .isEqualTo(original.header().psn());
            assertThat(resend.header().flags() & PacketFlags.RETRANSMISSION)
                    .as(what + ": RETRANSMISSION flag")
                    .isNotZero();
            assertThat(resend.opcode()).as(what + ": opcode").isEqualTo(original.opcode());
            assertThat(resend.streamId()).as(what + ": stream").isEqualTo(original.streamId());
            assertThat(resend.messageSequenceNumber()).as(what + ": MSN").isEqualTo(original.messageSequenceNumber());
            assertThat(resend.messageLength()).as(what + ": message length").isEqualTo(original.messageLength());
            assertThat(resend.remoteAddress()).as(what + ": remote address").isEqualTo(original.remoteAddress());
            assertThat(resend.remoteKey()).as(what + ": remote key").isEqualTo(original.remoteKey());
            assertThat(resend.receiveSequenceNumber()).as(what + ": RSN").isEqualTo(original.receiveSequenceNumber());
            assertThat(resend.payload()).as(what + ": payload").isEqualTo(original.payload());
            assertThat(Psn.precedes(original.transmitTimestamp(), resend.transmitTimestamp()))
                    .as(
                            what + ": a fresh transmit timestamp, after the original's %d, was %d",
                            original.transmitTimestamp(),
                            resend.transmitTimestamp())
                    .isTrue();
        }

        /**
         * With a timeout in the attempt: the first hole resent after some packet had already been sent twice since
         * the ACK, or null. A timeout resends at least the oldest hole (6.6.2), so a hole that waited for a second
         * transmission of another packet waited for the timer.
         */
        private static String resentOnlyAfterARepeat(
                final List<ReceivedPacket> snapshot, final List<DataPacket> holes) {
            final Map<Long, Integer> sends = new HashMap<>();
            boolean repeated = false;
            for (final ReceivedPacket packet : snapshot) {
                final DataPacket data = packet.data().orElse(null);
                if (data == null || data.header().destinationConnectionId() != Testbed.TESTER_CONNECTION) {
                    continue;
                }
                final int times = sends.merge(data.messageOffset(), 1, Integer::sum);
                final boolean isHole = holes.stream().anyMatch(h -> h.messageOffset() == data.messageOffset());
                if (isHole && times == 1 && repeated) {
                    return "offset " + data.messageOffset() + " (PSN "
                            + data.header().psn() + ") was first resent after another packet had been sent twice";
                }
                repeated |= times >= 2;
            }
            return null;
        }

        private PacketMatcher ours() {
            return PacketMatcher.expect().data().opcode(opcode).connection(Testbed.TESTER_CONNECTION);
        }

        private PacketMatcher sameSegment(final DataPacket original) {
            return ours().msn(original.messageSequenceNumber()).messageOffset(original.messageOffset());
        }

        private org.mrconf.peer.PacketBuilder fullAck(final List<DataPacket> packets) {
            final DataPacket last = packets.stream()
                    .max(Comparator.comparingLong(
                            p -> Psn.distance(NEAR_WRAP, p.header().psn())))
                    .orElseThrow();
            return CaseSteps.ack(last.header().pathId(), Psn.add(last.header().psn(), 1), last.transmitTimestamp());
        }

        /** Expiries since the attempt's message was posted (the window-growing traffic before it is not counted). */
        private long rtoExpirations() throws Exception {
            return testbed.counters().getOrDefault(DutCounters.RTO_EXPIRATIONS, 0L) - expiriesBefore;
        }
    }
}

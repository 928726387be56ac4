package org.mrconf.cases.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.HostStalled;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * Clauses 6.3.1 and 6.4.1 decided against the timer: the path's RTO is first stretched far above the timer tolerance
 * (ACKs echoing an old timestamp, {@link CaseSteps#stretchTheTimer}), so that after an ACK that shows a gap, and that
 * acknowledges PSNs for the first time and so restarts the path's timer (clause 6.6.2), no timeout can resend anything
 * for at least the stretched RTO less the tolerance. A resend of the hole within that time is the gap's; none within
 * it means the device left the loss the ACK reported to its timer, and fails. The wait allows every legal reorder
 * tolerance (clause 6.3.3: at most a quarter of the smoothed RTT, which the stretched RTO bounds from above).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Gap-driven resend, decided")
class GapResendCase {
    private static final long REMOTE_ADDRESS = 0x00A8_0000L;
    private static final long REMOTE_KEY = 0x78;
    /** The echo age that stretches the path's RTO: far above the standard timers and their tolerance. */
    private static final Duration AGE = Duration.ofMillis(200);
    /** Connections tried while a host stall leaves each undecided. */
    private static final int ATTEMPTS = 3;

    @Test
    @DisplayName("a hole an ACK reports is resent before the path's stretched timer could fire, and only the hole")
    @Verifies("6.3.1")
    @Verifies("6.4.1")
    void theHoleIsResentBeforeAnyTimeoutCould(final DeviceUnderTest dut) throws Exception {
        HostStalled.retry(ATTEMPTS, () -> attempt(dut));
    }

    /** One attempt, on a connection of its own. */
    private static void attempt(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final var declared = testbed.profile().parameters().congestion();
            if (!testbed.profile().claims(Profile.CONGESTION)
                    && (declared.initialPathWindow() == 1 || declared.initialConnectionWindow() == 1)) {
                throw NotApplicable.because("the device's configuration: its declared first windows ("
                        + declared.initialPathWindow() + " per path, " + declared.initialConnectionWindow()
                        + " per connection) hold one packet in flight, and a device without the congestion profile"
                        + " keeps them, so no ACK can show a gap; first windows of two packets or more would"
                        + " exercise it");
            }
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            final long toleranceNs = timers.tolerance().toNanos();
            final long floorNs = CaseSteps.stretchedRtoFloor(testbed, AGE).toNanos();
            if (floorNs <= 4 * toleranceNs) {
                throw Inconclusive.because(
                        "the declared maximum RTO (" + timers.maxRto().toMillis() + " ms) is not"
                                + " above four times the timer tolerance ("
                                + timers.tolerance().toMillis() + " ms), so a"
                                + " gap-driven resend cannot be told from a timeout's; a larger maximum RTO or a smaller"
                                + " tolerance would make this case conclusive");
            }
            final int segment = testbed.connection().maxPayload(Opcode.WRITE);
            // Many samples: the RTO settles close to the echo age, and windows that start at one packet grow.
            CaseSteps.stage(testbed, Testbed.BASE, 16 * segment, 50);
            CaseSteps.stretchTheTimer(testbed, AGE, 1500, Testbed.BASE, 16L * segment);

            final int length = 4 * segment + segment / 2;
            final long source = Testbed.BASE + 0x8_0000L;
            CaseSteps.stage(testbed, source, length, 51);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1501, source, length), REMOTE_ADDRESS, REMOTE_KEY);
            final List<DataPacket> sent =
                    TesterMessages.awaitStalled(testbed, mark, ours().firstTransmission()).stream()
                            .map(p -> p.data().orElseThrow())
                            .toList();
            final long firstPsn = sent.isEmpty() ? 0 : sent.get(0).header().psn();
            final List<DataPacket> onPath = sent.stream()
                    .sorted(Comparator.comparingLong(
                            p -> Psn.distance(firstPsn, p.header().psn())))
                    .toList();
            if (onPath.size() < 2) {
                throw Inconclusive.because("after its windows grew on " + 16 + " acknowledged packets the device"
                        + " still kept " + onPath.size() + " packet in flight, so no ACK can show a gap; a device"
                        + " whose windows hold two packets makes this case conclusive");
            }
            if (!testbed.peer()
                    .recorder()
                    .matching(mark, ours().retransmission())
                    .isEmpty()) {
                throw new HostStalled("the device resent part of the message before the tester's ACK, well"
                        + " before its stretched RTO; its timer is judged by the timer cases, and an undisturbed"
                        + " attempt would make this case conclusive");
            }
            // The hole: the second PSN when there are three or more (the first is acknowledged by the cumulative
            // PSN), else the first. Every PSN after it is reported received.
            final DataPacket missing = onPath.get(onPath.size() >= 3 ? 1 : 0);
            final long missingPsn = missing.header().psn();
            final Set<Long> reported = onPath.stream()
                    .map(p -> p.header().psn())
                    .filter(psn -> psn != missingPsn)
                    .collect(Collectors.toSet());
            final List<Integer> bits = new ArrayList<>();
            for (final DataPacket p : onPath) {
                if (Psn.precedes(missingPsn, p.header().psn())) {
                    bits.add((int) Psn.distance(missingPsn, p.header().psn()));
                }
            }
            final long echo = (onPath.get(0).transmitTimestamp() - AGE.toNanos()) & 0xFFFF_FFFFL;
            final var before = testbed.counters();
            final int gapMark = testbed.peer().mark();
            testbed.peer()
                    .send(ack(0, missingPsn, echo)
                            .sackBits(bits.stream().mapToInt(Integer::intValue).toArray()));
            // Read once the ACK has left, never before: the bound below is an upper one, and the tester's own thread
            // may be held back while it builds the ACK (a loaded host), which is no lateness of the DUT's.
            final long ackSentNs = testbed.peer().link().nowNs();

            // No timeout of the path can come before this, after the ACK that restarted its timer.
            final long boundNs = floorNs - toleranceNs;
            final PacketMatcher holeResent = ours().retransmission().psn(missingPsn);
            final Optional<ReceivedPacket> early = testbed.peer()
                    .recorder()
                    .awaitFirst(
                            gapMark, holeResent, Duration.ofNanos(Math.max(0, boundNs - elapsed(testbed, ackSentNs))));
            final long byNs = early.map(p -> p.receivedNs() - ackSentNs).orElse(Long.MAX_VALUE);
            if (early.isEmpty() || byNs >= boundNs) {
                final Optional<ReceivedPacket> late = testbed.peer()
                        .recorder()
                        .awaitFirst(
                                gapMark,
                                holeResent,
                                timers.maxRto().multipliedBy(2).plus(Testbed.WAIT));
                final long lateNs = late.map(p -> p.receivedNs() - ackSentNs).orElse(elapsed(testbed, ackSentNs));
                // The tester's host may hold it back so long between seeing the packets and sending its ACK that the
                // DUT's timer fires first: the hole is then already resent, in flight again, and what the ACK made
                // the DUT do cannot be told. A fresh connection may not meet such a stall.
                final long timerFirst = testbed.peer().recorder().matching(mark, ours().retransmission()).stream()
                        .filter(p -> p.receivedNs() - ackSentNs < 0)
                        .count();
                if (timerFirst > 0) {
                    final long lastSentNs =
                            testbed.peer().recorder().matching(mark, ours().firstTransmission()).stream()
                                    .mapToLong(ReceivedPacket::receivedNs)
                                    .filter(receivedNs -> receivedNs - ackSentNs < 0)
                                    .max()
                                    .orElse(ackSentNs);
                    throw new HostStalled(String.format(
                            "the tester's ACK left %d ms after the DUT's last packet (its host held it back), after"
                                    + " the DUT's timer had resent %d packet(s), so what the ACK made it resend cannot"
                                    + " be told",
                            (ackSentNs - lastSentNs) / 1_000_000, timerFirst));
                }
                StallAllowance.excuse(
                        testbed.stalls(),
                        "6.3.1: the resend of the hole",
                        StallAllowance.overNs(lateNs, boundNs),
                        ackSentNs,
                        ackSentNs + lateNs);
                throw new AssertionError(String.format(
                        "6.3.1, 6.4.1: the ACK reported PSN %d missing and %d later PSN(s) received, so the DUT must"
                                + " deem it lost and resend it; it did not within %d ms, before which its timer,"
                                + " stretched to at least %d ms and restarted by that ACK, could not fire (tolerance %d"
                                + " ms). %s; rto_expirations grew by %d: the loss was left to the timeout",
                        missingPsn,
                        bits.size(),
                        boundNs / 1_000_000,
                        floorNs / 1_000_000,
                        toleranceNs / 1_000_000,
                        late.isPresent() ? "It came " + lateNs / 1_000_000 + " ms after the ACK" : "It never came",
                        testbed.grew(before, DutCounters.RTO_EXPIRATIONS)));
            }
            // The gap's resend: exactly the hole, and nothing the ACK reported received (6.4.1). The DUT resends the
            // hole once it has taken the ACK in, so a resend it stamped before the hole's was sent before it knew what
            // the ACK reported: a timer the host held back fired first (a stall), which an undisturbed attempt avoids.
            final long holeStamp = early.orElseThrow().data().orElseThrow().transmitTimestamp();
            Thread.sleep(testbed.quiet().toMillis());
            final List<DataPacket> resentReported =
                    testbed.peer().recorder().matching(gapMark, ours().retransmission()).stream()
                            .map(p -> p.data().orElseThrow())
                            .filter(p -> reported.contains(p.header().psn()))
                            .toList();
            final List<DataPacket> beforeTheAck = resentReported.stream()
                    .filter(p -> Psn.precedes(p.transmitTimestamp(), holeStamp))
                    .toList();
            if (!beforeTheAck.isEmpty() && beforeTheAck.size() == resentReported.size()) {
                throw new HostStalled(String.format(
                        "the DUT resent %d PSN(s) the ACK reported received, stamped before its resend of the hole:"
                                + " its timer fired before it took the ACK in (a host stall outlasted the stretched RTO),"
                                + " so what the ACK made it resend cannot be told; re-run on an idle host",
                        beforeTheAck.size()));
            }
            assertThat(resentReported.stream()
                            .filter(p -> !Psn.precedes(p.transmitTimestamp(), holeStamp))
                            .map(p -> p.header().psn())
                            .toList())
                    .as(
                            "6.4.1: after the ACK that reported PSN %d missing, the DUT resends no PSN it reported received %s",
                            missingPsn, reported)
                    .isEmpty();
            // Acknowledge everything, including what the window the ACK opened let out, until the WRITE completes.
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
            List<org.mrconf.dut.DutCompletion> done = List.of();
            while (done.isEmpty() && System.nanoTime() - deadline < 0) {
                final long highest = testbed.peer().recorder().matching(mark, ours()).stream()
                        .mapToLong(p -> Psn.distance(
                                firstPsn, p.data().orElseThrow().header().psn()))
                        .max()
                        .orElse(0);
                testbed.peer().send(ack(0, Psn.add(firstPsn, highest + 1), echo));
                done = completions.drain(Duration.ofMillis(20)).stream()
                        .filter(c -> c.wrId() == 1501)
                        .toList();
            }
            assertThat(done)
                    .as("7.5.4: the WRITE completes once every PSN is acknowledged")
                    .isNotEmpty();
            assertThat(done.get(0).status()).as("7.5.4: the WRITE completes").isEqualTo(CompletionStatus.SUCCESS);
        }
    }

    private static long elapsed(final Testbed testbed, final long sinceNs) {
        return testbed.peer().link().nowNs() - sinceNs;
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }

    private static PacketBuilder ack(final int path, final long cumulativePsn, final long echoedTimestamp) {
        return PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(path)
                .cumulativePsn(cumulativePsn)
                .echoedTimestamp(echoedTimestamp);
    }
}

package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * Path health at the DUT as sender (clauses 6.7.1 to 6.7.3): a path whose timer expires the declared number of times
 * gets no new PSNs while the others carry the traffic, its outstanding PSN stays on it, it is tested at least once per
 * maximum RTO with new entropy, and the first ACK of it makes it usable again; a peer that answers nothing on any path
 * fails the connection after the declared connection timeout.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Path health")
class PathHealthCase {
    private static final long REMOTE_ADDRESS = 0x00F0_0000L;
    private static final long REMOTE_KEY = 0x44;

    @Test
    @DisplayName(
            "an unhealthy path gets no new PSNs, keeps its own, is probed with new entropy, and recovers on an ACK;"
                    + " its PROBEs, if any, are ECN-capable")
    @Verifies("6.7.1")
    @Verifies("6.7.2")
    @Verifies("4.1.7")
    void unhealthyPathIsAvoidedProbedAndRecovered(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            CaseSteps.stage(testbed, Testbed.BASE, 4096, 3);
            // New data beside the lost packet needs a second packet in flight: first windows of one are grown first.
            final long lostMsn = CaseSteps.growPastOnePacket(testbed, 1098, Testbed.BASE, REMOTE_ADDRESS, REMOTE_KEY);
            final List<String> notExercised = new java.util.ArrayList<>();
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1100, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final DataPacket lost = testbed.peer()
                    .await(mark, ours(lostMsn), Testbed.WAIT)
                    .data()
                    .orElseThrow();
            final int sick = lost.header().pathId();
            // The original and one resend per expiry: after the threshold-th resend the path is unhealthy.
            final int threshold = timers.unhealthyThreshold();
            final Duration enough = timers.maxRto().multipliedBy(threshold + 1).plus(Testbed.WAIT);
            final List<ReceivedPacket> resends =
                    testbed.peer().recorder().awaitCount(mark, ours(lostMsn), threshold + 1, enough);
            for (final ReceivedPacket resend : resends) {
                assertThat(resend.data().orElseThrow().header().pathId())
                        .as("6.7.1: the outstanding PSN stays on its path id")
                        .isEqualTo(sick);
            }

            // New data now goes around the unhealthy path, which the tester keeps silent; the others are answered.
            final java.util.function.Consumer<ReceivedPacket> answerHealthy = received -> {
                final DataPacket data = received.data().orElse(null);
                if (data != null && data.header().pathId() != sick) {
                    testbed.connection().onReceived(received);
                    try {
                        testbed.peer()
                                .send(testbed.connection().ackFor(data.header().pathId(), data.transmitTimestamp()));
                    } catch (final java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            };
            testbed.peer().recorder().addListener(answerHealthy);
            final int newMark = testbed.peer().mark();
            for (int i = 1; i <= 4; i++) {
                testbed.control()
                        .postWrite(
                                CaseSteps.request(testbed, 0, 1100 + i, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            }
            // The lost packet stays in flight: a DUT that keeps one packet in flight (section 10 allows it) sends no
            // new data now, and then this part is not exercised.
            final PacketMatcher later = writes().firstTransmission()
                    .where("a later message", DataPacket.class, p -> p.messageSequenceNumber() > lostMsn);
            testbed.peer().recorder().awaitFirst(newMark, later, Testbed.WAIT);
            final List<DataPacket> fresh = testbed.peer().recorder().matching(newMark, later).stream()
                    .map(p -> p.data().orElseThrow())
                    .toList();
            if (fresh.isEmpty()) {
                notExercised.add("6.7.1's new PSNs around the unhealthy path (the DUT sent no new data while the lost"
                        + " packet was in flight: one packet in flight, which section 10 allows)");
            }
            for (final DataPacket p : fresh) {
                assertThat(p.header().pathId())
                        .as("6.7.1: no new PSN on unhealthy path %d (MSN %d)", sick, p.messageSequenceNumber())
                        .isNotEqualTo(sick);
            }

            // 6.7.2: tested again within one maximum RTO, with an entropy other than the last one.
            final ReceivedPacket before = testbed.peer().recorder().since(mark).stream()
                    .filter(sickPath(sick, lostMsn))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            final int probeMark = testbed.peer().mark();
            final ReceivedPacket test = testbed.peer()
                    .await(
                            probeMark,
                            sickPath(sick, lostMsn),
                            timers.maxRto().plus(timers.tolerance()).plus(timers.maxRto()));
            StallAllowance.excuse(
                    testbed.stalls(),
                    "6.7.2: the unhealthy path's next test",
                    StallAllowance.overNs(
                            test.receivedNs() - before.receivedNs(),
                            timers.maxRto().plus(timers.tolerance()).toNanos() * 3 / 2),
                    before.receivedNs(),
                    test.receivedNs());
            assertThat(test.receivedNs() - before.receivedNs())
                    .as("6.7.2: the unhealthy path is tested at least once per maximum RTO")
                    .isLessThanOrEqualTo(
                            timers.maxRto().plus(timers.tolerance()).toNanos() * 3 / 2);
            assertThat(test.captured().sourcePort())
                    .as("6.7.2: with new entropy")
                    .isNotEqualTo(before.captured().sourcePort());

            // The first ACK of the path makes it healthy. A message longer than the other path's 256-PSN window
            // (6.1.3), with nothing acknowledged, must then put new PSNs on it too.
            testbed.peer().recorder().removeListener(answerHealthy);
            testbed.peer().send(CaseSteps.ack(sick, Psn.add(lost.header().psn(), 1), lost.transmitTimestamp()));
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final long bigLength = 260L * payload;
            final long big = testbed.control()
                    .registerRegion(
                            Testbed.BASE + 8L * Testbed.REGION,
                            bigLength,
                            java.util.EnumSet.of(org.mrconf.dut.RegionAccess.LOCAL_WRITE));
            final int healedMark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            new org.mrconf.dut.WorkRequest(
                                    Testbed.DUT_CONNECTION,
                                    0,
                                    1199,
                                    big,
                                    Testbed.BASE + 8L * Testbed.REGION,
                                    bigLength),
                            REMOTE_ADDRESS,
                            REMOTE_KEY);
            final java.util.Optional<ReceivedPacket> onHealed = testbed.peer()
                    .recorder()
                    .awaitFirst(healedMark, writes().firstTransmission().path(sick), Testbed.WAIT);
            if (onHealed.isEmpty()) {
                // 10.2.1 forbids the idle healed path only while data is held back for lack of window on the other
                // path (its 256-PSN send window, 6.1.3): a connection window that can be smaller holds it back first.
                final int other = 1 - sick;
                final long onOther =
                        testbed
                                .peer()
                                .recorder()
                                .matching(
                                        healedMark, writes().firstTransmission().path(other))
                                .stream()
                                .map(p -> p.data().orElseThrow().header().psn())
                                .distinct()
                                .count();
                assertThat(onOther)
                        .as(
                                "6.7.2: after the first ACK of healed path %d, a message longer than path %d's 256-PSN"
                                        + " window (6.1.3), nothing acknowledged, puts new PSNs on the healed path too"
                                        + " once that window is full (10.2.1)",
                                sick, other)
                        .isLessThan(256);
                notExercised.add("6.7.2's new PSNs on the healed path (the DUT put only " + onOther + " new PSNs on"
                        + " path " + other + ", so no data was held back for lack of its 256-PSN window: a connection"
                        + " window, or the sender's choice, held it to fewer, which section 10 allows)");
            }
            assertProbesAreEcnCapable(testbed, mark);
            if (!notExercised.isEmpty()) {
                throw NotApplicable.because("the device's configuration: " + String.join("; ", notExercised)
                        + " not exercised; what was exercised holds. Larger declared first windows would exercise it");
            }
        }
    }

    /**
     * Clause 4.1.7: the PROBEs a device claiming congestion sent are ECN-capable, as data is. Judged
     * only where the link shows the ECN field of what the tester receives; a device that tests its paths by
     * retransmission alone sends none, and nothing is judged.
     */
    private static void assertProbesAreEcnCapable(final Testbed testbed, final int mark) {
        if (!testbed.profile().claims(org.mrconf.catalogue.Profile.CONGESTION)
                || !testbed.peer().link().can(org.mrconf.dut.WireLink.Capability.RECEIVE_ECN)) {
            return;
        }
        for (final ReceivedPacket probe :
                testbed.peer().recorder().matching(mark, PacketMatcher.expect().probe())) {
            assertThat(probe.captured().ecn())
                    .as("4.1.7: the ECN field of the DUT's PROBE %s", probe)
                    .isIn(org.mrconf.pcap.Ecn.ECT_0, org.mrconf.pcap.Ecn.ECT_1);
        }
    }

    @Test
    @DisplayName("a peer silent on every path fails the connection after the declared timeout, every request with it")
    @Verifies("6.7.3")
    void silentPeerFailsTheConnection(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            CaseSteps.stage(testbed, Testbed.BASE, 4096, 4);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1200, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, 1201, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            final ReceivedPacket first = testbed.peer().await(mark, writes(), Testbed.WAIT);
            final long timeoutNs = timers.connectionTimeout().toNanos();
            final long toleranceNs = timers.tolerance().toNanos();
            final long deadline = System.nanoTime() + timeoutNs * 2 + Testbed.WAIT.toNanos();
            List<DutCompletion> failed = List.of();
            while (failed.size() < 2 && System.nanoTime() - deadline < 0) {
                failed = completions.drain(Duration.ofMillis(100)).stream()
                        .filter(c -> c.wrId() == 1200 || c.wrId() == 1201)
                        .toList();
            }
            final long elapsedNs = testbed.peer().link().nowNs() - first.receivedNs();
            assertThat(failed)
                    .as("6.7.3: every outstanding work request completes")
                    .hasSize(2);
            assertThat(failed)
                    .extracting(DutCompletion::status)
                    .as("6.7.3: with a transport error")
                    .containsOnly(CompletionStatus.TRANSPORT_TIMEOUT);
            StallAllowance.excuse(
                    testbed.stalls(),
                    "6.7.3: the connection's failure",
                    StallAllowance.underNs(elapsedNs, timeoutNs - toleranceNs),
                    first.receivedNs(),
                    first.receivedNs() + elapsedNs);
            assertThat(elapsedNs)
                    .as("6.7.3: not before the declared connection timeout of %d ms", timeoutNs / 1_000_000)
                    .isGreaterThanOrEqualTo(timeoutNs - toleranceNs);
        }
    }

    @Test
    @DisplayName("a READ whose request was acknowledged but whose data never comes fails the connection after the"
            + " declared timeout, completing TRANSPORT_TIMEOUT")
    @Verifies("6.7.3")
    void aReadWaitingForItsDataTimesOut(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            org.mrconf.cases.TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.READ);
            final DeviceDeclaration.Timers timers =
                    testbed.profile().parameters().timers();
            // The READ_REQUEST is acknowledged, so no PSN is outstanding; only the READ waits.
            org.mrconf.cases.DutTraffic.postReadAndAcknowledgeItsRequest(
                    testbed,
                    new org.mrconf.dut.WorkRequest(Testbed.DUT_CONNECTION, 0, 1210, testbed.key(), Testbed.BASE, 64),
                    REMOTE_ADDRESS,
                    REMOTE_KEY);
            final long acknowledgedNs = testbed.peer().link().nowNs();
            final long timeoutNs = timers.connectionTimeout().toNanos();
            final java.util.Optional<DutCompletion> completion = testbed.completionWithin(
                    1210, timers.connectionTimeout().multipliedBy(2).plus(Testbed.WAIT));
            assertThat(completion)
                    .as(
                            "6.7.3: a READ waiting for its data, with no packet from the peer, fails within twice the declared"
                                    + " connection timeout of %d ms",
                            timeoutNs / 1_000_000)
                    .isPresent();
            assertThat(completion.orElseThrow().status())
                    .as("6.7.3: with TRANSPORT_TIMEOUT")
                    .isEqualTo(CompletionStatus.TRANSPORT_TIMEOUT);
            final long failedAfterNs = testbed.peer().link().nowNs() - acknowledgedNs;
            StallAllowance.excuse(
                    testbed.stalls(),
                    "6.7.3: the READ's failure",
                    StallAllowance.underNs(
                            failedAfterNs, timeoutNs - timers.tolerance().toNanos()),
                    acknowledgedNs,
                    acknowledgedNs + failedAfterNs);
            assertThat(failedAfterNs)
                    .as("6.7.3: not before the declared connection timeout")
                    .isGreaterThanOrEqualTo(timeoutNs - timers.tolerance().toNanos());
        }
    }

    private static PacketMatcher writes() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .remoteAddress(REMOTE_ADDRESS);
    }

    private static PacketMatcher ours(final long msn) {
        return writes().msn(msn);
    }

    /** A resend of the lost WRITE (MSN {@code lostMsn}) or a PROBE on the unhealthy path. */
    private static PacketMatcher sickPath(final int path, final long lostMsn) {
        return ours(lostMsn).path(path).or(PacketMatcher.expect().probe().path(path));
    }
}

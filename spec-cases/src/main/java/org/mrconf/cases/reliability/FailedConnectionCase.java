package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * Clause 6.7.4: what a failed connection leaves behind. The tester lets the DUT's connection fail as clause 6.7.3
 * says (it answers none of the DUT's packets), then checks that the receives posted on it completed FLUSHED and that
 * a WRITE naming it is dropped and counted as for an unknown connection, not placed and not acknowledged.
 */
@ExtendWith(DutExtension.class)
@DisplayName("After connection failure")
class FailedConnectionCase {
    private static final long REMOTE_ADDRESS = 0x00F0_0000L;
    private static final long REMOTE_KEY = 0x44;
    private static final long WRITE_ID = 1302;
    private static final Set<Long> RECEIVE_IDS = Set.of(1300L, 1301L);
    /** Where the posted receives point and where the late WRITE aims: apart from the staged source bytes. */
    private static final long RECEIVES = Testbed.BASE + 8192;

    private static final long LATE_WRITE = Testbed.BASE + 16384;

    private static final long PARTLY_FILLED_ID = 1310;

    private static final long FAILING_WRITE_ID = 1311;

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("once its connection has failed, the DUT flushes the receives posted on it and drops a later WRITE"
            + " as one for an unknown connection")
    @Verifies("6.7.4")
    void receivesFlushAndLaterPacketsAreForAnUnknownConnection(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final Duration timeout = testbed.profile().parameters().timers().connectionTimeout();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            for (final long id : RECEIVE_IDS) {
                testbed.control()
                        .postReceive(new WorkRequest(
                                Testbed.DUT_CONNECTION, 0, id, testbed.key(), RECEIVES + (id - 1300) * 256, 256));
            }
            CaseSteps.stage(testbed, Testbed.BASE, 4096, 6);
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(CaseSteps.request(testbed, 0, WRITE_ID, Testbed.BASE, 64), REMOTE_ADDRESS, REMOTE_KEY);
            testbed.peer().await(mark, PacketMatcher.expect().data().opcode(Opcode.WRITE), Testbed.WAIT);
            // The tester answers nothing: the DUT's connection times out (clause 6.7.3, judged by PathHealthCase).
            final long deadline = System.nanoTime()
                    + timeout.multipliedBy(2).plus(Testbed.WAIT).toNanos();
            List<DutCompletion> failed = List.of();
            while (failed.isEmpty() && System.nanoTime() - deadline < 0) {
                failed = completions.drain(Duration.ofMillis(100)).stream()
                        .filter(c -> c.wrId() == WRITE_ID)
                        .toList();
            }
            if (failed.isEmpty() || failed.get(0).status() == CompletionStatus.SUCCESS) {
                throw Inconclusive.because("the connection did not fail within twice its declared timeout of "
                        + timeout.toMillis() + " ms, so there is no failed connection to judge (clause 6.7.3's case"
                        + " judges the timeout)");
            }
            final List<DutCompletion> receives = completions.await(
                    c -> RECEIVE_IDS.contains(c.wrId()), RECEIVE_IDS.size(), "6.7.4: the receives posted on it");
            assertThat(receives)
                    .extracting(DutCompletion::status)
                    .as("6.7.4: the unconsumed receives of a failed connection complete FLUSHED")
                    .containsOnly(CompletionStatus.FLUSHED);
            assertThat(receives).extracting(DutCompletion::type).containsOnly(CompletionType.RECEIVE);

            final Map<String, Long> before = testbed.counters();
            final int late = testbed.peer().mark();
            final byte[] data = Testbed.randomBytes(64, 95);
            final long latePsn = testbed.connection()
                    .sendNew(testbed.write(0, LATE_WRITE, testbed.key(), data), 0)
                    .psn();
            assertThat(testbed.awaitGrowth(before, DutCounters.RX_UNKNOWN_CONNECTION, 1))
                    .as("6.7.4: a WRITE for the failed connection counts as one for an unknown connection")
                    .isEqualTo(1);
            if (testbed.profile().implementsOptional("11.2.3")) {
                // 6.7.4: as for an unknown connection, so a device implementing 11.2.3 answers it.
                testbed.peer()
                        .await(
                                late,
                                PacketMatcher.expect()
                                        .nack()
                                        .psn(latePsn)
                                        .where(
                                                "code UNKNOWN_CONNECTION",
                                                org.mrconf.wire.NackPacket.class,
                                                n -> n.code() == org.mrconf.wire.NackCode.UNKNOWN_CONNECTION),
                                Testbed.WAIT);
            }
            testbed.peer().assertNone(late, PacketMatcher.expect().ack(), testbed.quiet());
            assertThat(testbed.control().readRegion(testbed.key(), LATE_WRITE, 64))
                    .as("6.7.4: a WRITE for the failed connection places nothing")
                    .containsOnly(0);
        }
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a receive that a SEND has only partly filled when the connection fails completes FLUSHED, naming"
            + " that SEND's MSN and length or neither")
    @Verifies("6.7.4")
    void partlyFilledReceiveIsFlushed(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            final PeerConnection connection = testbed.connection();
            final int segment = TesterMessages.segment(testbed, Opcode.SEND);
            final byte[] data = Testbed.randomBytes(2 * segment, 97);
            testbed.control()
                    .postReceive(new WorkRequest(
                            Testbed.DUT_CONNECTION, 0, PARTLY_FILLED_ID, testbed.key(), RECEIVES, data.length));
            // The first of the SEND's two packets only: the DUT has it (its ACK covers it), the second never comes.
            final long msn = connection.claimMsn(0);
            final long rsn = connection.claimRsn(0);
            int mark = testbed.peer().mark();
            final long psn = connection
                    .sendNew(
                            CaseSteps.segment(connection, Opcode.SEND, 0, 0, msn, data, segment, 0)
                                    .rsn(rsn)
                                    .ackRequest(),
                            0)
                    .psn();
            testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(psn), Testbed.WAIT);

            // The connection fails: the tester answers the DUT's WRITE with NACK UNKNOWN_CONNECTION (clause 9.1.10).
            CaseSteps.stage(testbed, Testbed.BASE, 64, 98);
            mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            CaseSteps.request(testbed, 0, FAILING_WRITE_ID, Testbed.BASE, 64),
                            REMOTE_ADDRESS,
                            REMOTE_KEY);
            final DataPacket write = testbed.peer()
                    .await(mark, PacketMatcher.expect().data().opcode(Opcode.WRITE), Testbed.WAIT)
                    .data()
                    .orElseThrow();
            testbed.peer()
                    .send(org.mrconf.cases.DutTraffic.nackOf(
                            write, org.mrconf.wire.NackCode.UNKNOWN_CONNECTION, Testbed.TESTER_CONNECTION));
            final var timers = testbed.profile().parameters().timers();
            final long deadline = System.nanoTime()
                    + timers.connectionTimeout()
                            .plus(timers.tolerance())
                            .plus(Testbed.WAIT)
                            .toNanos();
            Optional<DutCompletion> failed = Optional.empty();
            while (failed.isEmpty() && System.nanoTime() - deadline < 0) {
                failed = completions.drain(Duration.ofMillis(50)).stream()
                        .filter(c -> c.wrId() == FAILING_WRITE_ID)
                        .findFirst();
            }
            if (failed.isEmpty() || failed.get().status() == CompletionStatus.SUCCESS) {
                throw Inconclusive.because("WRITE " + FAILING_WRITE_ID + " did not fail within the DUT's connection"
                        + " timeout (it completed "
                        + failed.map(c -> c.status().toString()).orElse("not at all")
                        + "), so there is no failed connection to judge; clause 9.1.10's and 6.7.3's cases judge"
                        + " why");
            }
            final DutCompletion receive = completions.awaitWrId(
                    PARTLY_FILLED_ID, "6.7.4: the receive the SEND had only partly filled, once the connection failed");
            assertThat(receive.status())
                    .as("6.7.4: a receive that a SEND has only partly filled is not consumed: it completes FLUSHED")
                    .isEqualTo(CompletionStatus.FLUSHED);
            assertThat(receive.type()).isEqualTo(CompletionType.RECEIVE);
            final boolean namesNone = receive.msn() == DutCompletion.NO_MSN && receive.length() == 0;
            final boolean namesTheSend = receive.msn() == msn && receive.length() == data.length;
            assertThat(namesNone || namesTheSend)
                    .as(
                            "6.7.4 (freedom F-14): the FLUSHED receive names the SEND's MSN %d and length %d, or neither"
                                    + " (msn null, length 0); it named msn %d, length %d",
                            msn, data.length, receive.msn(), receive.length())
                    .isTrue();
        }
    }
}

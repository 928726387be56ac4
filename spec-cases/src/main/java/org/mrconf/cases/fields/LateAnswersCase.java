package org.mrconf.cases.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * The sender's rows of Table 5-13 (spec clause 5.6.5): answers that come late or name the wrong message. A NACK whose
 * outstanding PSN belongs to another stream or MSN, or whose PSN was never sent, is dropped and counted
 * {@code rx_invalid_field}; a NACK whose PSN is no longer outstanding and whose stream and MSN name no unfinished
 * message (a late NACK of a finished message) is dropped and counted {@code rx_stale}; an ACK whose cumulative PSN is older than the path's (a reordered ACK) is no
 * error and takes back nothing an earlier ACK acknowledged. In each, the work the DUT has in progress completes as if
 * the odd answer had never come.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Late and mismatched ACKs and NACKs")
class LateAnswersCase {
    private static final int LENGTH = 64;
    private static final long SOURCE = Testbed.BASE + 0x2000;
    /** How much older than its own the echo of the stretching ACK is: the DUT's RTO grows well past it. */
    private static final Duration STRETCH = Duration.ofMillis(400);

    @Test
    @DisplayName("a NACK whose outstanding PSN belongs to another stream or MSN is dropped, counted, and fails nothing")
    @Verifies("5.6.5")
    @Kind(Kind.Purpose.INVALID)
    void nackNamingAnotherMessageChangesNothing(final Testbed testbed) throws Exception {
        final ReceivedPacket packet = postWriteAndAwait(testbed, 401);
        final DataPacket data = packet.data().orElseThrow();
        final Map<String, Long> before = testbed.counters();
        final List<PacketBuilder> mismatched = List.of(
                nackOf(data, NackCode.REMOTE_ACCESS).msn(Psn.add(data.messageSequenceNumber(), 1)),
                nackOf(data, NackCode.BOUNDS).stream(data.streamId() + 1),
                nackOf(data, NackCode.INVALID_REQUEST).stream(data.streamId() + 1)
                        .msn(Psn.add(data.messageSequenceNumber(), 7)));
        for (final PacketBuilder nack : mismatched) {
            testbed.peer().send(nack);
        }
        final long counted = testbed.awaitGrowth(before, DutCounters.RX_INVALID_FIELD, mismatched.size());
        assertThat(counted)
                .as("5.6.5 (Table 5-13): each NACK whose outstanding PSN carries another stream id or MSN is counted"
                        + " under rx_invalid_field")
                .isEqualTo(mismatched.size());
        CaseSteps.acknowledge(testbed, packet);
        assertThat(testbed.awaitCompletion(401).status())
                .as("5.6.5 (Table 5-13): none of those NACKs failed the WRITE; it completes on its ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("a late NACK of a finished message is dropped as stale, a NACK of a PSN never sent as invalid; neither"
            + " fails anything")
    @Verifies("5.6.5")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void lateNackOfAFinishedMessageChangesNothing(final Testbed testbed) throws Exception {
        final ReceivedPacket finished = postWriteAndAwait(testbed, 411);
        CaseSteps.acknowledge(testbed, finished);
        assertThat(testbed.awaitCompletion(411).status())
                .as("set-up: WRITE 411 completes on its ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
        final ReceivedPacket pending = postWriteAndAwait(testbed, 412);
        final DataPacket old = finished.data().orElseThrow();
        final DataPacket next = pending.data().orElseThrow();

        final Map<String, Long> before = testbed.counters();
        // Its stream and MSN are those of the finished WRITE, not of WRITE 412 on the same stream.
        // One for each sender action of Table 5-10: fail the message, retry later, retransmit.
        final List<PacketBuilder> stale = List.of(
                nackOf(old, NackCode.REMOTE_ACCESS),
                nackOf(old, NackCode.RECEIVER_NOT_READY).retryAfter(1),
                nackOf(old, NackCode.PSN_OUT_OF_WINDOW));
        // A PSN past anything sent on the path, with the stream and MSN of WRITE 412: a PSN never sent.
        final long neverSent = Psn.add(next.header().psn(), 1000);
        final PacketBuilder unsent =
                nackOf(next, NackCode.INVALID_REQUEST).psn(neverSent).cumulativePsn(neverSent);
        for (final PacketBuilder nack : stale) {
            testbed.peer().send(nack);
        }
        testbed.peer().send(unsent);
        assertThat(testbed.awaitGrowth(before, DutCounters.RX_STALE, stale.size()))
                .as("5.6.5 (Table 5-13): each NACK naming a PSN no longer outstanding and no unfinished message is"
                        + " counted under rx_stale")
                .isEqualTo(stale.size());
        assertThat(testbed.awaitGrowth(before, DutCounters.RX_INVALID_FIELD, 1))
                .as("5.6.5 (Table 5-13): a NACK naming a PSN never sent on its path is counted under rx_invalid_field")
                .isEqualTo(1);
        CaseSteps.acknowledge(testbed, pending);
        assertThat(testbed.awaitCompletion(412).status())
                .as("5.6.5 (Table 5-13): the late NACK of WRITE 411 did not fail WRITE 412 of the same stream")
                .isEqualTo(CompletionStatus.SUCCESS);
        assertThat(testbed.completionWithin(411, testbed.quiet()))
                .as("5.6.5 (Table 5-13): the late NACK gave the finished WRITE 411 no second completion")
                .isEmpty();
    }

    @Test
    @DisplayName("an ACK older than the path's cumulative PSN is no error and takes back nothing acknowledged")
    @Verifies("5.6.5")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void reorderedAckIsNoError(final DeviceUnderTest dut) throws Exception {
        // One path, its RTO stretched far past the tester's answers, so no timer resends what the ACKs cover.
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            CaseSteps.stretchTheTimer(testbed, STRETCH, 420, SOURCE, LENGTH);
            judgeReorderedAck(testbed);
        }
    }

    private static void judgeReorderedAck(final Testbed testbed) throws Exception {
        testbed.control().writeRegion(testbed.key(), SOURCE, Testbed.randomBytes(LENGTH, 42));
        final int mark = testbed.peer().mark();
        for (long wrId = 421; wrId <= 423; wrId++) {
            testbed.control().postWrite(request(testbed, wrId), 0x00D0_0000L, 0x61);
        }
        // Each WRITE is acknowledged as it comes (the last ACK, of all three PSNs, is the newer one): a sender may have
        // no more than one packet in flight (section 10: its declared initial windows may be 1, and floor(W) after
        // an ACK may be less than 3, clause 10.1.1), so the tester does not wait for three unacknowledged ones.
        final ReceivedPacket firstWrite = testbed.peer().await(mark, firstWrites(), Testbed.WAIT);
        final long first = firstWrite.data().orElseThrow().header().psn();
        long longestAnswerNs = 0;
        long echo = 0;
        for (int i = 0; i < 3; i++) {
            final ReceivedPacket write = i == 0
                    ? firstWrite
                    : testbed.peer().await(mark, firstWrites().psn(Psn.add(first, i)), Testbed.WAIT);
            echo = write.data().orElseThrow().transmitTimestamp();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(first, i + 1), echo));
            longestAnswerNs = Math.max(
                    longestAnswerNs,
                    testbed.peer().link().nowNs() - write.captured().receivedNs());
        }
        for (long wrId = 421; wrId <= 423; wrId++) {
            assertThat(testbed.awaitCompletion(wrId).status())
                    .as("set-up: WRITE %d completes on the ACK of all three PSNs", wrId)
                    .isEqualTo(CompletionStatus.SUCCESS);
        }
        final Map<String, Long> before = testbed.counters();
        final int afterOld = testbed.peer().mark();
        // Then the older one, as if the fabric had held it back: PSNs first and first + 1 missing, first + 2 received.
        testbed.peer().send(CaseSteps.ack(0, first, echo, Psn.add(first, 2)));
        // A new WRITE, posted after the old ACK was sent: its PSN and completion show what the path's state became.
        testbed.control().postWrite(request(testbed, 424), 0x00D0_0000L, 0x61);
        final ReceivedPacket fourth =
                testbed.peer().await(afterOld, firstWrites().psn(Psn.add(first, 3)), Testbed.WAIT);
        testbed.peer()
                .send(CaseSteps.ack(
                        0, Psn.add(first, 4), fourth.data().orElseThrow().transmitTimestamp()));
        assertThat(testbed.awaitCompletion(424).status())
                .as("5.6.5 (Table 5-13): after a reordered ACK the path goes on; the next WRITE completes on its ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                .as("5.6.5 (Table 5-13): an ACK whose cumulative PSN is older than the path's is not an invalid field"
                        + " (rx_invalid_field)")
                .isZero();
        final List<ReceivedPacket> resent = testbed.peer()
                .recorder()
                .matching(
                        afterOld,
                        PacketMatcher.expect()
                                .data()
                                .connection(Testbed.TESTER_CONNECTION)
                                .where(
                                        "one of the three acknowledged PSNs",
                                        DataPacket.class,
                                        d -> Psn.distance(first, d.header().psn()) < 3));
        if (!resent.isEmpty()) {
            final Duration rtoFloor = CaseSteps.stretchedRtoFloor(testbed, STRETCH);
            if (longestAnswerNs >= rtoFloor.toNanos() / 2) {
                throw Inconclusive.because("the DUT resent an acknowledged PSN, but the tester took "
                        + Duration.ofNanos(longestAnswerNs).toMillis() + " ms to acknowledge it, long enough"
                        + " for the path's timer to have fired first");
            }
        }
        assertThat(resent)
                .as("5.6.5 (Table 5-13): no PSN the newer ACK acknowledged is resent because an older ACK showed it"
                        + " missing")
                .isEmpty();
    }

    private static PacketMatcher firstWrites() {
        return DutTraffic.dataFromDut().opcode(Opcode.WRITE);
    }

    private static WorkRequest request(final Testbed testbed, final long wrId) {
        return new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), SOURCE, LENGTH);
    }

    /** Posts a one-packet WRITE {@code wrId} on stream 0 and returns its first transmission. */
    private static ReceivedPacket postWriteAndAwait(final Testbed testbed, final long wrId) throws Exception {
        testbed.control().writeRegion(testbed.key(), SOURCE, Testbed.randomBytes(LENGTH, wrId));
        return DutTraffic.postWriteAndAwaitFirst(testbed, wrId, SOURCE, LENGTH, 0x00D0_0000L, 0x61);
    }

    /** The NACK a correct receiver sends for {@code data}: its path, PSN, stream and MSN, its PSN as cumulative. */
    private static PacketBuilder nackOf(final DataPacket data, final NackCode code) {
        return PacketBuilder.nack(code)
                .connection(Testbed.DUT_CONNECTION)
                .path(data.header().pathId())
                .psn(data.header().psn())
                .stream(data.streamId())
                .msn(data.messageSequenceNumber())
                .cumulativePsn(data.header().psn())
                .retryAfter(0);
    }
}

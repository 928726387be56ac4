package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * A PSN NACKed PSN_OUT_OF_WINDOW (spec clause 9.1.11) waits for an ACK of its path that advances the cumulative PSN,
 * or for the path's timer, and is then resent on its path; no SACK gap makes it lost meanwhile. The tester stretches
 * the DUT's RTO on a one-path connection first, so that the timer is far off; a resend that comes sooner than the
 * timer could have fired, by the DUT's own transmit timestamps, is the DUT's own choice.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Retry after NACK PSN_OUT_OF_WINDOW")
class OutOfWindowRetryCase {
    private static final int LENGTH = 64;
    private static final long SOURCE = Testbed.BASE + 0x2000;
    /** How much older than its own the echo of the stretching ACK is: the DUT's RTO grows well past it. */
    private static final Duration STRETCH = Duration.ofMillis(400);

    @Test
    @DisplayName("a PSN NACKed PSN_OUT_OF_WINDOW is resent only once an ACK moves the window, then the WRITE completes")
    @Verifies("9.1.11")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void waitsForTheWindowToMove(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            CaseSteps.stretchTheTimer(testbed, STRETCH, 440, SOURCE, LENGTH);
            judge(testbed);
        }
    }

    private static void judge(final Testbed testbed) throws Exception {
        final Duration rtoFloor = CaseSteps.stretchedRtoFloor(testbed, STRETCH);
        // Short enough that, with the tester's answers, nothing here reaches the timer's half.
        final Duration quarter = rtoFloor.dividedBy(4);
        final Duration watch = testbed.quiet().compareTo(quarter) <= 0 ? testbed.quiet() : quarter;
        testbed.control().writeRegion(testbed.key(), SOURCE, Testbed.randomBytes(LENGTH, 44));
        final int mark = testbed.peer().mark();
        for (long wrId = 441; wrId <= 442; wrId++) {
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), SOURCE, LENGTH),
                            0x00D0_0000L,
                            0x61);
        }
        final DataPacket firstOut =
                testbed.peer().await(mark, firstWrites(), Testbed.WAIT).data().orElseThrow();
        final PacketMatcher secondWrite = firstWrites()
                .where(
                        "the other WRITE",
                        DataPacket.class,
                        p -> p.messageSequenceNumber() != firstOut.messageSequenceNumber());
        // Both WRITEs in flight at once: a DUT that keeps one packet in flight (section 10 allows it) sends the second
        // only once the first is acknowledged, and then no ACK is left to move the window the NACK names.
        if (CaseSteps.awaitWhileOthersHeld(testbed, mark, secondWrite, quarter).isEmpty()) {
            testbed.peer().send(CaseSteps.ack(0, Psn.add(firstOut.header().psn(), 1), firstOut.transmitTimestamp()));
            final DataPacket only =
                    testbed.peer().await(mark, secondWrite, Testbed.WAIT).data().orElseThrow();
            testbed.peer().send(CaseSteps.ack(0, Psn.add(only.header().psn(), 1), only.transmitTimestamp()));
            throw NotApplicable.because("the device's configuration: the DUT kept one packet in flight (section 10), so"
                    + " the second WRITE went out only once the first was acknowledged, and no later ACK could move the"
                    + " window a PSN_OUT_OF_WINDOW NACK names; windows of two packets or more would exercise it");
        }
        final List<DataPacket> writes =
                testbed.peer().recorder().awaitCount(mark, firstWrites(), 2, Testbed.WAIT).stream()
                        .map(p -> p.data().orElseThrow())
                        .sorted(Comparator.comparingLong(DataPacket::messageSequenceNumber))
                        .toList();
        final DataPacket first = writes.get(0);
        final DataPacket second = writes.get(1);
        final long psn = second.header().psn();

        // The receiver's window is full at the second WRITE: it NACKs it and records nothing (clause 9.1.4).
        final int afterNack = testbed.peer().mark();
        testbed.peer()
                .send(
                        PacketBuilder.nack(NackCode.PSN_OUT_OF_WINDOW)
                                .connection(Testbed.DUT_CONNECTION)
                                .path(0)
                                .psn(psn)
                                .stream(second.streamId())
                                .msn(second.messageSequenceNumber())
                                .cumulativePsn(first.header().psn())
                                .retryAfter(0));
        Thread.sleep(watch.toMillis());
        for (final ReceivedPacket early : testbed.peer().recorder().matching(afterNack, copiesOf(psn))) {
            final long sinceFirstNs = Psn.distance(
                    second.transmitTimestamp(), early.data().orElseThrow().transmitTimestamp());
            if (sinceFirstNs >= rtoFloor.toNanos() / 2) {
                throw Inconclusive.because("the DUT resent PSN " + psn + " " + sinceFirstNs / 1_000_000
                        + " ms after sending it, late enough for its timer to have fired first");
            }
            throw new AssertionError(
                    "9.1.11: the DUT resent PSN " + psn + " NACKed PSN_OUT_OF_WINDOW " + sinceFirstNs / 1_000
                            + " us after sending it (by its own timestamps), before any ACK moved the window and"
                            + " well before its timer: " + early);
        }

        // The ACK of the first WRITE moves the window: now the second must be resent.
        testbed.peer().send(CaseSteps.ack(0, Psn.add(first.header().psn(), 1), first.transmitTimestamp()));
        final DataPacket resent = testbed.peer()
                .await(afterNack, copiesOf(psn), Testbed.WAIT)
                .data()
                .orElseThrow();
        assertThat(resent.header().pathId())
                .as("9.1.11: the PSN is resent on its own path")
                .isZero();
        testbed.peer().send(CaseSteps.ack(0, Psn.add(psn, 1), resent.transmitTimestamp()));
        assertThat(testbed.awaitCompletion(441).status())
                .as("9.1.11: the first WRITE completes on its ACK")
                .isEqualTo(CompletionStatus.SUCCESS);
        assertThat(testbed.awaitCompletion(442).status())
                .as("9.1.11: the WRITE NACKed PSN_OUT_OF_WINDOW completes once its resend is acknowledged")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    private static PacketMatcher firstWrites() {
        return DutTraffic.dataFromDut().opcode(Opcode.WRITE);
    }

    private static PacketMatcher copiesOf(final long psn) {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .psn(psn);
    }
}

package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Inconclusive;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * The status of every work request and receive when a connection fails (clause 6.7.4, Table 6-1):
 * each names why it did not finish. A work request whose own buffer was invalidated while in use completes
 * LOCAL_PROTECTION_ERROR whatever ended the connection (clause 11.1.7); the others complete with the cause's status,
 * REMOTE_UNKNOWN_CONNECTION for a NACK UNKNOWN_CONNECTION (clause 9.1.10), FLUSHED when the device failed the
 * connection itself because a PSN of an invalidated source had to be resent; every receive no SEND consumed completes
 * FLUSHED, one whose buffer was invalidated included, and the invalidation alone completes nothing.
 *
 * <p>The timeout cause (TRANSPORT_TIMEOUT) is judged by {@code PathHealthCase.silentPeerFailsTheConnection}. Each
 * buffer to invalidate lies in a region of its own, so the testbed's region stays valid.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Statuses when a connection fails")
class FailureStatusCase {
    private static final long OTHER = Testbed.BASE + 0x20_0000L;
    private static final long OTHER_LENGTH = 0x1_0000L;
    private static final int LENGTH = 64;
    private static final long REMOTE_KEY = 0x61;
    /** How much older than its own the echo of the stretching ACK is: the DUT's RTO grows well past the case. */
    private static final Duration STRETCH = Duration.ofMillis(400);

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("after a NACK UNKNOWN_CONNECTION, a WRITE with an invalidated source completes LOCAL_PROTECTION_ERROR,"
            + " the other work requests REMOTE_UNKNOWN_CONNECTION, and every receive FLUSHED, one in an invalidated"
            + " region included")
    @Verifies("6.7.4")
    @Verifies("11.1.7")
    void unknownConnection(final DeviceUnderTest dut) throws Exception {
        // One path whose RTO is stretched far past the case, so that no timer resends the invalidated source first.
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            CaseSteps.stretchTheTimer(testbed, STRETCH, 399, Testbed.BASE + 0x4000, LENGTH);
            final long other = otherRegion(testbed);
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            testbed.control()
                    .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 401, testbed.key(), Testbed.BASE, 256));
            testbed.control().postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 402, other, OTHER, 256));
            final int mark = testbed.peer().mark();
            postWrite(testbed, 410, testbed.key(), Testbed.BASE + 0x1000, 0x00E1_0000L);
            postWrite(testbed, 411, other, OTHER + 0x1000, 0x00E2_0000L);
            postWrite(testbed, 412, testbed.key(), Testbed.BASE + 0x1000, 0x00E3_0000L);
            final boolean read = testbed.profile().claims(Profile.READ);
            if (read) {
                testbed.control()
                        .postRead(
                                new WorkRequest(
                                        Testbed.DUT_CONNECTION, 0, 413, testbed.key(), Testbed.BASE + 0x2000, LENGTH),
                                0x00E4_0000L,
                                REMOTE_KEY);
            }
            final DataPacket named = firstWriteTo(testbed, mark, 0x00E1_0000L);
            // WRITE 411 must have left before its source goes: with a packet unsent, the invalidation itself fails the
            // connection (clause 11.1.7), and the NACK this case judges would find it failed already. A tester may
            // assume only one packet in flight (section 10), so a DUT that holds 411 back leaves the case undecided.
            final boolean sent = org.mrconf.cases.TesterMessages.awaitStalled(testbed, mark, firstWrite()).stream()
                    .anyMatch(p -> p.data().orElseThrow().remoteAddress() == 0x00E2_0000L);
            if (!sent) {
                throw org.mrconf.cases.NotApplicable.because("the device's configuration: the DUT did not send WRITE"
                        + " 411 before any ACK (it keeps fewer packets in flight, which section 10 allows), so"
                        + " invalidating its source would fail the connection before the NACK (11.1.7); first windows"
                        + " of three packets or more would exercise it");
            }

            testbed.control().invalidateRegion(other);
            final List<DutCompletion> afterInvalidation = completions.drain(testbed.quiet());
            if (afterInvalidation.stream().anyMatch(c -> c.wrId() == 410 && c.status() == CompletionStatus.FLUSHED)) {
                // The stretched timer fired anyway (a host stall can outlast the stretch) and wanted the invalidated
                // source again: failing the connection is then right (11.1.7), and the NACK has nothing to judge.
                throw Inconclusive.because("WRITE 410 completed FLUSHED before the tester's NACK: the DUT failed the"
                        + " connection itself (its timer wanted the invalidated source again, clause 11.1.7)");
            }
            assertThat(afterInvalidation)
                    .as("11.1.7: the invalidation alone completes nothing: the receive in the region waits for a SEND"
                            + " or the connection's end, the WRITE for its turn in MSN order")
                    .noneMatch(c -> c.wrId() == 402 || c.wrId() == 411);
            testbed.peer().send(unknownConnection(named));

            final Map<Long, CompletionStatus> expected = new LinkedHashMap<>();
            expected.put(410L, CompletionStatus.REMOTE_UNKNOWN_CONNECTION);
            expected.put(411L, CompletionStatus.LOCAL_PROTECTION_ERROR);
            expected.put(412L, CompletionStatus.REMOTE_UNKNOWN_CONNECTION);
            if (read) {
                expected.put(413L, CompletionStatus.REMOTE_UNKNOWN_CONNECTION);
            }
            expected.put(401L, CompletionStatus.FLUSHED);
            expected.put(402L, CompletionStatus.FLUSHED);
            final Map<Long, CompletionStatus> seen = statuses(completions, expected);
            if (seen.get(410L) == CompletionStatus.FLUSHED) {
                throw Inconclusive.because(
                        "WRITE 410 completed FLUSHED: the DUT failed the connection itself (its timer"
                                + " wanted the invalidated source again, clause 11.1.7) before the tester's NACK arrived");
            }
            assertThat(seen)
                    .as("6.7.4 (Table 6-1): the statuses after a NACK UNKNOWN_CONNECTION (9.1.10)")
                    .isEqualTo(expected);
        }
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("when the DUT fails the connection because a PSN of an invalidated source must be resent, that WRITE"
            + " completes LOCAL_PROTECTION_ERROR and the others FLUSHED")
    @Verifies("6.7.4")
    @Verifies("11.1.7")
    void invalidatedSourceResend(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            final long other = otherRegion(testbed);
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            testbed.control()
                    .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 421, testbed.key(), Testbed.BASE, 256));
            final int mark = testbed.peer().mark();
            postWrite(testbed, 422, other, OTHER + 0x1000, 0x00E5_0000L);
            postWrite(testbed, 423, testbed.key(), Testbed.BASE + 0x1000, 0x00E6_0000L);
            firstWriteTo(testbed, mark, 0x00E5_0000L);
            // The tester acknowledges nothing: the DUT's timer wants WRITE 422's PSN again, which it cannot resend
            // (11.1.7). WRITE 423, sent or not (a tester may assume one packet in flight, section 10), stays
            // unfinished.
            testbed.control().invalidateRegion(other);

            final Map<Long, CompletionStatus> expected = new LinkedHashMap<>();
            expected.put(422L, CompletionStatus.LOCAL_PROTECTION_ERROR);
            expected.put(423L, CompletionStatus.FLUSHED);
            expected.put(421L, CompletionStatus.FLUSHED);
            final Map<Long, CompletionStatus> seen = statuses(completions, expected, patience(testbed));
            if (seen.get(423L) == CompletionStatus.TRANSPORT_TIMEOUT) {
                throw Inconclusive.because("WRITE 423 completed TRANSPORT_TIMEOUT: the DUT's connection timeout ended"
                        + " the connection before its retransmission timer wanted the invalidated PSN again");
            }
            assertThat(seen)
                    .as("6.7.4 (Table 6-1): the statuses when the device fails the connection for an invalidated"
                            + " source (11.1.7)")
                    .isEqualTo(expected);
        }
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a WRITE whose source is invalidated before any packet of it was sent fails the connection: it"
            + " completes LOCAL_PROTECTION_ERROR, the next WRITE of its stream FLUSHED")
    @Verifies("11.1.7")
    @Verifies("6.7.4")
    void unsentSourceFailsTheConnection(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            // WRITEs 430 and 431 are each longer than any legal sender can send on one path before an ACK: 256 packets
            // at most (the largest path window, 10.1.1, and the 256-PSN send window, 6.2), whatever windows the device
            // declares or leaves undeclared. So when the DUT stalls for want of ACKs, WRITE 431 has packets unsent,
            // whether the DUT sends its messages one after another or interleaves them (clause 7.5.7, freedom F-16).
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final int window = Math.max(256, CaseSteps.declaredFirstWindow(testbed));
            final int fill = (window + 1) * payload;
            final long fillSource = OTHER + 8L * Testbed.REGION;
            final long fillKey =
                    testbed.control().registerRegion(fillSource, fill, EnumSet.of(RegionAccess.LOCAL_WRITE));
            final long doomedSource = OTHER + 12L * Testbed.REGION;
            final long doomed =
                    testbed.control().registerRegion(doomedSource, fill, EnumSet.of(RegionAccess.LOCAL_WRITE));
            final int mark = testbed.peer().mark();
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, 430, fillKey, fillSource, fill),
                            0x00E8_0000L,
                            REMOTE_KEY);
            testbed.control()
                    .postWrite(
                            new WorkRequest(Testbed.DUT_CONNECTION, 0, 431, doomed, doomedSource, fill),
                            0x00E9_0000L,
                            REMOTE_KEY);
            postWrite(testbed, 432, testbed.key(), Testbed.BASE, 0x00EA_0000L);
            final PacketMatcher data = PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION);
            final PacketMatcher firstOf431 = data.firstTransmission()
                    .where("of WRITE 431", DataPacket.class, d -> d.remoteAddress() == 0x00E9_0000L);
            final List<ReceivedPacket> before =
                    org.mrconf.cases.TesterMessages.awaitStalled(testbed, mark, data.firstTransmission());
            assertThat(before)
                    .as("set-up: the DUT sends the first packets of WRITE 430 within %s", Testbed.WAIT)
                    .isNotEmpty();
            final int sentOf431 =
                    testbed.peer().recorder().matching(mark, firstOf431).size();
            if (sentOf431 >= CaseSteps.segments(fill, payload)) {
                throw Inconclusive.because(
                        "the DUT sent all " + sentOf431 + " packets of WRITE 431 before any ACK, more"
                                + " than 256 on one path (10.1.1 and 6.2), so nothing of it was unsent when its source was"
                                + " invalidated (a source wholly sent when invalidated fails no connection, judged by"
                                + " InvalidatedBufferCase.whollySentSourceFailsNoConnection)");
            }
            testbed.control().invalidateRegion(doomed);
            // The DUT is stalled for want of ACKs, so any first transmission of WRITE 431 from now on left after the
            // invalidation completed. (A resend of one of its packets sent before, which 11.1.7 forbids too, could
            // have left before the invalidation completed by a timer this case does not control; judged elsewhere.)
            final int afterInvalidation = testbed.peer().mark();
            // Everything is acknowledged from now on: WRITE 430 completes, and the DUT reaches a packet of WRITE 431
            // that it can never send.
            testbed.connection().autoAck(true);
            for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, data)) {
                testbed.connection().onReceived(packet);
            }
            final DataPacket last = before.get(before.size() - 1).data().orElseThrow();
            testbed.peer().send(testbed.connection().ackFor(0, last.transmitTimestamp()));

            final Map<Long, CompletionStatus> expected = new LinkedHashMap<>();
            expected.put(430L, CompletionStatus.SUCCESS);
            expected.put(431L, CompletionStatus.LOCAL_PROTECTION_ERROR);
            expected.put(432L, CompletionStatus.FLUSHED);
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            final Map<Long, CompletionStatus> seen = statuses(completions, expected, patience(testbed));
            if (seen.get(430L) == CompletionStatus.FLUSHED) {
                // The DUT failed the connection on reaching WRITE 431's next packet while WRITE 430's last packets were
                // still unsent or unacknowledged: conforming (no later than when it would have sent 431's packet).
                expected.put(430L, CompletionStatus.FLUSHED);
            }
            final boolean sent432 =
                    before.stream().anyMatch(p -> p.data().orElseThrow().remoteAddress() == 0x00EA_0000L);
            if (sent432 && seen.get(432L) == CompletionStatus.SUCCESS) {
                // WRITE 432 (one packet) went out before the invalidation, interleaved ahead of WRITE 431 (freedom
                // F-16), and the tester acknowledged it: done before the failure, it keeps SUCCESS (Table 6-1's note).
                expected.put(432L, CompletionStatus.SUCCESS);
            }
            assertThat(testbed.peer().recorder().matching(afterInvalidation, firstOf431))
                    .as(
                            "11.1.4: no packet of the WRITE whose source was invalidated is sent after the invalidation"
                                    + " (%d of its packets had been sent before it)",
                            sentOf431)
                    .isEmpty();
            assertThat(seen)
                    .as("11.1.7: a source invalidated with packets unsent fails the connection (the peer would never"
                            + " see its MSN finished); 6.7.4 (Table 6-1): the statuses")
                    .isEqualTo(expected);
        }
    }

    private static long otherRegion(final Testbed testbed) throws Exception {
        return testbed.control().registerRegion(OTHER, OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE));
    }

    private static void postWrite(
            final Testbed testbed, final long wrId, final long key, final long source, final long remoteAddress)
            throws Exception {
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, key, source, LENGTH),
                        remoteAddress,
                        REMOTE_KEY);
    }

    private static PacketMatcher firstWrite() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
    }

    private static DataPacket firstWriteTo(final Testbed testbed, final int mark, final long remoteAddress) {
        return testbed.peer()
                .await(
                        mark,
                        firstWrite()
                                .where(
                                        "to 0x" + Long.toHexString(remoteAddress),
                                        DataPacket.class,
                                        d -> d.remoteAddress() == remoteAddress),
                        Testbed.WAIT)
                .data()
                .orElseThrow();
    }

    /** A NACK UNKNOWN_CONNECTION answering {@code data}, as a peer without the connection sends it (9.1.10). */
    private static PacketBuilder unknownConnection(final DataPacket data) {
        return org.mrconf.cases.DutTraffic.nackOf(data, NackCode.UNKNOWN_CONNECTION, Testbed.TESTER_CONNECTION);
    }

    /** How long the DUT may take to want the invalidated PSN again: at worst its timer, else its connection timeout. */
    private static Duration patience(final Testbed testbed) {
        final var timers = testbed.profile().parameters().timers();
        return timers.connectionTimeout().plus(timers.tolerance()).plus(Testbed.WAIT);
    }

    private static Map<Long, CompletionStatus> statuses(
            final CaseSteps.CompletionLog completions, final Map<Long, CompletionStatus> expected) throws Exception {
        return statuses(completions, expected, Testbed.WAIT);
    }

    /** The status of each work request or receive {@code expected} names, waiting up to {@code patience} for all. */
    private static Map<Long, CompletionStatus> statuses(
            final CaseSteps.CompletionLog completions,
            final Map<Long, CompletionStatus> expected,
            final Duration patience)
            throws Exception {
        final long deadline = System.nanoTime() + patience.toNanos();
        List<DutCompletion> seen = completions.all();
        while (!allSeen(seen, expected) && System.nanoTime() - deadline < 0) {
            seen = completions.drain(Duration.ofMillis(50));
        }
        final Map<Long, CompletionStatus> statuses = new LinkedHashMap<>();
        for (final Long wrId : expected.keySet()) {
            seen.stream().filter(c -> c.wrId() == wrId).findFirst().ifPresent(c -> statuses.put(wrId, c.status()));
        }
        return statuses;
    }

    private static boolean allSeen(final List<DutCompletion> seen, final Map<Long, CompletionStatus> expected) {
        return expected.keySet().stream().allMatch(id -> seen.stream().anyMatch(c -> c.wrId() == id));
    }
}

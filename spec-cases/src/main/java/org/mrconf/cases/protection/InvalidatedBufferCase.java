package org.mrconf.cases.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
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
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.SenderClock;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * A buffer invalidated while the DUT's own work uses it (spec clause 11.1.7): the work request completes with
 * LOCAL_PROTECTION_ERROR in its stream's MSN order, whatever ACKs or READ_RESPONSEs come afterwards; a PSN of an
 * invalidated source that must be resent fails the connection instead; the SEND that meets an invalidated receive is
 * NACKed REMOTE_ACCESS and consumes it. Each buffer lies in a region of its own, so the testbed's region stays valid.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Invalidating a buffer in use")
class InvalidatedBufferCase {
    private static final long OTHER = Testbed.BASE + 0x10_0000L;
    private static final long OTHER_LENGTH = 0x1_0000L;
    private static final int LENGTH = 64;
    /** How much older than its own the echo of the stretching ACK is: the DUT's RTO grows well past it. */
    private static final Duration STRETCH = Duration.ofMillis(400);

    @Test
    @DisplayName("a WRITE whose source is invalidated before its ACK fails with LOCAL_PROTECTION_ERROR, in MSN order")
    @Verifies("11.1.7")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void sourceInvalidatedBeforeItsAck(final DeviceUnderTest dut) throws Exception {
        // One path whose RTO is stretched far past the tester's answer, so that no timer fails the connection first.
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            CaseSteps.stretchTheTimer(testbed, STRETCH, 79, Testbed.BASE + 0x4000, LENGTH);
            judgeSourceInvalidatedBeforeItsAck(testbed);
        }
    }

    private static void judgeSourceInvalidatedBeforeItsAck(final Testbed testbed) throws Exception {
        final long source = localRegion(testbed);
        testbed.control().writeRegion(source, OTHER, Testbed.randomBytes(LENGTH, 81));
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(LENGTH, 80));
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int mark = testbed.peer().mark();
        // WRITE 80 from the testbed's region, then WRITE 81 of the same stream from the region to invalidate.
        testbed.control()
                .postWrite(new WorkRequest(Testbed.DUT_CONNECTION, 0, 80, testbed.key(), Testbed.BASE, LENGTH), 0, 1);
        testbed.control().postWrite(new WorkRequest(Testbed.DUT_CONNECTION, 0, 81, source, OTHER, LENGTH), 0, 1);
        final PacketMatcher firstData = PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
        final ReceivedPacket one = testbed.peer().await(mark, firstData, Testbed.WAIT);
        final long oneMsn = one.data().orElseThrow().messageSequenceNumber();
        final PacketMatcher otherWrite =
                firstData.where("the other WRITE", DataPacket.class, d -> d.messageSequenceNumber() != oneMsn);
        // A DUT may keep one packet in flight (section 10): WRITE 81 then goes out only once WRITE 80 is acknowledged.
        // It is awaited for no longer than half the stretched RTO, so that WRITE 80's timer does not fire meanwhile.
        final java.util.Optional<ReceivedPacket> both80And81 =
                CaseSteps.awaitWhileOthersHeld(testbed, mark, otherWrite, STRETCH.dividedBy(2));
        if (both80And81.isEmpty()) {
            oneWriteAtATime(testbed, completions, mark, one, otherWrite, source);
            return;
        }
        final ReceivedPacket other = both80And81.get();
        // The MSN says which is which: WRITE 81 was posted second.
        final boolean oneFirst = Psn.precedes(oneMsn, other.data().orElseThrow().messageSequenceNumber());
        final ReceivedPacket write80 = oneFirst ? one : other;
        final ReceivedPacket write81 = oneFirst ? other : one;

        testbed.control().invalidateRegion(source);
        CaseSteps.acknowledge(testbed, write81);
        // WRITE 81 is acknowledged, WRITE 80 not yet: a DUT that completed 81 now would break MSN order, and the
        // order of everything seen shows it below.
        completions.drain(Testbed.QUIET);
        CaseSteps.acknowledge(testbed, write80);
        final List<DutCompletion> both =
                completions.await(c -> c.wrId() == 80 || c.wrId() == 81, 2, "11.1.7: WRITEs 80 and 81 complete");
        assertThat(both.stream().map(DutCompletion::wrId).toList())
                .as("11.1.7: completions in MSN order")
                .containsExactly(80L, 81L);
        assertThat(both.get(1).status())
                .as("11.1.7: a WRITE whose source was invalidated before its last PSN was acknowledged, though the"
                        + " ACK came afterwards")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
        if (both.get(0).status() != CompletionStatus.SUCCESS) {
            // WRITE 81's timer fired before the tester's ACK all the same: it cannot be resent, so the connection
            // fails (clause 11.1.7) and WRITE 80 with it. That is conforming; the tester just could not see the rest.
            throw Inconclusive.because("WRITE 80 completed " + both.get(0).status() + ": the DUT's timer for WRITE"
                    + " 81 may have fired before the tester's ACK arrived, failing the connection as 11.1.7 requires");
        }
    }

    /**
     * Clause 11.1.7 for a DUT that keeps one packet in flight: WRITE 80 is acknowledged, WRITE 81 goes out, its source is
     * invalidated and then its ACK comes. WRITE 81 must still fail with LOCAL_PROTECTION_ERROR; completing it in MSN
     * order behind an unacknowledged WRITE 80 could not be exercised, and the case says so.
     */
    private static void oneWriteAtATime(
            final Testbed testbed,
            final CaseSteps.CompletionLog completions,
            final int mark,
            final ReceivedPacket write80,
            final PacketMatcher otherWrite,
            final long source)
            throws Exception {
        CaseSteps.acknowledge(testbed, write80);
        final ReceivedPacket write81 = testbed.peer().await(mark, otherWrite, Testbed.WAIT);
        testbed.control().invalidateRegion(source);
        CaseSteps.acknowledge(testbed, write81);
        final List<DutCompletion> both =
                completions.await(c -> c.wrId() == 80 || c.wrId() == 81, 2, "11.1.7: WRITEs 80 and 81 complete");
        assertThat(both.stream().map(DutCompletion::wrId).toList())
                .as("11.1.7: completions in MSN order")
                .containsExactly(80L, 81L);
        assertThat(both.get(0).status()).as("WRITE 80, acknowledged before").isEqualTo(CompletionStatus.SUCCESS);
        assertThat(both.get(1).status())
                .as("11.1.7: a WRITE whose source was invalidated before its last PSN was acknowledged, though the"
                        + " ACK came afterwards")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
        throw NotApplicable.because("the device's configuration: the DUT kept one packet in flight (section 10), so"
                + " WRITE 81 went out only after WRITE 80 was acknowledged, and its error completion behind an"
                + " unacknowledged earlier WRITE (MSN order, 7.5.8) was not exercised; its LOCAL_PROTECTION_ERROR"
                + " was judged and holds. Windows of two packets or more would exercise the order");
    }

    @Test
    @DisplayName("a WRITE whose source was wholly sent when invalidated fails no connection: it completes"
            + " LOCAL_PROTECTION_ERROR once acknowledged, not before, and a later WRITE completes SUCCESS")
    @Verifies("11.1.7")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void whollySentSourceFailsNoConnection(final DeviceUnderTest dut) throws Exception {
        // One path whose RTO is stretched far past the tester's answer, so that no timer wants the PSN again (which
        // would fail the connection, as 11.1.7 requires) before the tester's ACK.
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            CaseSteps.stretchTheTimer(testbed, STRETCH, 87, Testbed.BASE + 0x4000, LENGTH);
            judgeWhollySentSource(testbed, 88, 89);
        }
    }

    /**
     * Clause 11.1.7 for a source wholly sent when invalidated, on a testbed whose timer {@link
     * CaseSteps#stretchTheTimer} stretched by {@link #STRETCH}: WRITE {@code wrId} of one packet from a region of its
     * own is sent, its region invalidated, and it is acknowledged before its timer can fire. It must not complete
     * before that ACK, then complete LOCAL_PROTECTION_ERROR; the connection lives on, so WRITE {@code laterWrId} from
     * the testbed's region completes SUCCESS.
     */
    static void judgeWhollySentSource(final Testbed testbed, final long wrId, final long laterWrId) throws Exception {
        final long source = localRegion(testbed);
        testbed.control().writeRegion(source, OTHER, Testbed.randomBytes(LENGTH, wrId));
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        // The DUT's timer for the WRITE starts when it sends it, after this; it cannot fire sooner than the stretched
        // RTO less the tolerance. The tester keeps within half of that.
        final long safeNs = CaseSteps.stretchedRtoFloor(testbed, STRETCH)
                        .minus(timers.tolerance())
                        .toNanos()
                / 2;
        final long postedNs = testbed.peer().link().nowNs();
        final int mark = testbed.peer().mark();
        testbed.control().postWrite(new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, source, OTHER, LENGTH), 0, 1);
        final ReceivedPacket write = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .opcode(Opcode.WRITE)
                                .connection(Testbed.TESTER_CONNECTION)
                                .firstTransmission(),
                        Testbed.WAIT);
        testbed.control().invalidateRegion(source);
        final long left = postedNs + safeNs - testbed.peer().link().nowNs();
        final Duration quiet = Duration.ofNanos(Math.max(0, Math.min(Testbed.QUIET.toNanos() / 3, left)));
        final boolean early = completions.drain(quiet).stream().anyMatch(c -> c.wrId() == wrId);
        final long seenByNs = testbed.peer().link().nowNs();
        if (early) {
            if (seenByNs - postedNs >= 2 * safeNs) {
                throw Inconclusive.because("the WRITE completed before the tester's ACK, but the tester looked only "
                        + (seenByNs - postedNs) / 1_000_000 + " ms after posting it, when its timer could have wanted"
                        + " the PSN again, which fails the connection (11.1.7); a less loaded tester would decide it");
            }
            throw new AssertionError("11.1.7: a WRITE whose source was wholly sent when invalidated completes once"
                    + " its PSNs are acknowledged, but it completed before the tester acknowledged it, within "
                    + (seenByNs - postedNs) / 1_000_000 + " ms of being posted, before its timer could fire; all"
                    + " completions: " + completions.all());
        }
        CaseSteps.acknowledge(testbed, write);
        final long ackedNs = testbed.peer().link().nowNs();
        final boolean timerMayHaveFired = ackedNs - postedNs >= 2 * safeNs;
        final String late = "the tester's ACK left " + (ackedNs - postedNs) / 1_000_000 + " ms after the WRITE was"
                + " posted, past the DUT's stretched RTO less its tolerance: its timer may have wanted the PSN again,"
                + " which fails the connection (11.1.7); a less loaded tester would decide it";
        final DutCompletion completion = completions.awaitWrId(wrId, "11.1.7: the WRITE, acknowledged");
        if (timerMayHaveFired && completion.status() != CompletionStatus.LOCAL_PROTECTION_ERROR) {
            throw Inconclusive.because("the WRITE completed " + completion.status() + " and " + late);
        }
        assertThat(completion.status())
                .as("11.1.7: a WRITE whose source was wholly sent but not acknowledged when invalidated completes"
                        + " LOCAL_PROTECTION_ERROR once acknowledged")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);

        // The connection lives on: the next WRITE of the stream is sent and completes.
        testbed.connection().autoAck(true);
        try {
            testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(LENGTH, laterWrId));
            try {
                testbed.control()
                        .postWrite(
                                new WorkRequest(
                                        Testbed.DUT_CONNECTION, 0, laterWrId, testbed.key(), Testbed.BASE, LENGTH),
                                0,
                                1);
            } catch (final org.mrconf.dut.DutControlException e) {
                if (e.code() != org.mrconf.dut.DutErrorCode.CONFLICT) {
                    throw e;
                }
                if (timerMayHaveFired) {
                    throw Inconclusive.because("the DUT refused a later WRITE (" + e.getMessage() + ") and " + late);
                }
                throw new AssertionError(
                        "11.1.7: a source wholly sent when invalidated fails no connection by itself,"
                                + " but the DUT refused a later WRITE: " + e.getMessage(),
                        e);
            }
            final DutCompletion later = completions.awaitWrId(laterWrId, "11.1.7: a later WRITE of the stream");
            if (timerMayHaveFired && later.status() != CompletionStatus.SUCCESS) {
                throw Inconclusive.because("the later WRITE completed " + later.status() + " and " + late);
            }
            assertThat(later.status())
                    .as("11.1.7: a source wholly sent when invalidated fails no connection by itself, so a later WRITE"
                            + " completes")
                    .isEqualTo(CompletionStatus.SUCCESS);
        } finally {
            testbed.connection().autoAck(false);
        }
    }

    @Test
    @DisplayName("a PSN of an invalidated source that must be resent is not: the connection fails instead")
    @Verifies("11.1.7")
    @Verifies("11.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void resendOfAnInvalidatedSourceFailsTheConnection(final Testbed testbed) throws Exception {
        final long source = localRegion(testbed);
        testbed.control().writeRegion(source, OTHER, Testbed.randomBytes(LENGTH, 85));
        final int mark = testbed.peer().mark();
        testbed.control().postWrite(new WorkRequest(Testbed.DUT_CONNECTION, 0, 85, source, OTHER, LENGTH), 0, 1);
        final PacketMatcher data = PacketMatcher.expect().data().connection(Testbed.TESTER_CONNECTION);
        testbed.peer().await(mark, data.firstTransmission(), Testbed.WAIT);
        testbed.control().invalidateRegion(source);
        final long invalidatedNs = testbed.peer().link().nowNs();
        // The tester acknowledges nothing: the DUT's timer must want the PSN again, and it cannot resend it.
        final DeviceDeclaration.Timers timers = testbed.profile().parameters().timers();
        final Duration patience =
                timers.connectionTimeout().plus(timers.tolerance()).plus(Testbed.WAIT);
        final Optional<DutCompletion> completion = testbed.completionWithin(85, patience);
        final List<ReceivedPacket> sent = testbed.peer().recorder().matching(mark, data);
        final SenderClock clock = SenderClock.from(sent);
        final long graceNs = timers.tolerance().toNanos();
        // A resend that both clocks place after the invalidation read the region afterwards; one sent just before
        // it (the timer may fire at any time) and held up on a loaded machine passes only one of them.
        assertThat(sent.stream()
                        .filter(p ->
                                p.receivedNs() - invalidatedNs > graceNs && clock.sentNs(p) - invalidatedNs > graceNs)
                        .toList())
                .as("11.1.7: no resend of a PSN whose source was invalidated")
                .isEmpty();
        if (completion.isEmpty()) {
            throw Inconclusive.because("WRITE 85 did not complete within " + patience
                    + " (the declared connection timeout plus tolerance): its timer never wanted the PSN again");
        }
        assertThat(completion.get().status())
                .as("11.1.7: the connection fails rather than resend a PSN of an invalidated source, and the WRITE"
                        + " completes")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
    }

    @Test
    @DisplayName("a READ whose sink is invalidated before its data fails with LOCAL_PROTECTION_ERROR; the data is"
            + " acknowledged")
    @Verifies("11.1.7")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void sinkInvalidatedBeforeItsData(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        final long sink = localRegion(testbed);
        final DataPacket request = DutTraffic.postReadAndAcknowledgeItsRequest(
                testbed, new WorkRequest(Testbed.DUT_CONNECTION, 0, 82, sink, OTHER, LENGTH), 0x00AA_0000L, 0x42);
        testbed.control().invalidateRegion(sink);

        final PeerConnection connection = testbed.connection();
        final PacketBuilder response = CaseSteps.readResponseTo(
                        connection,
                        request,
                        Testbed.randomBytes(LENGTH, 82),
                        connection.maxPayload(Opcode.READ_RESPONSE),
                        0,
                        0)
                .ackRequest();
        final int before = testbed.peer().mark();
        final PeerConnection.Segment sent = connection.sendNew(response, 0);
        testbed.peer()
                .await(
                        before,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(0)
                                .covers(sent.psn()),
                        Testbed.WAIT);
        assertThat(testbed.awaitCompletion(82).status())
                .as("11.1.7: a READ whose sink was invalidated before its READ_RESPONSE arrived")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
    }

    @Test
    @DisplayName("a SEND that meets a receive whose buffer was invalidated is NACKed REMOTE_ACCESS and consumes it")
    @Verifies("11.1.7")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void receiveInvalidatedBeforeItsSend(final Testbed testbed) throws Exception {
        final long buffer = localRegion(testbed);
        testbed.control().postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 83, buffer, OTHER, 4096));
        testbed.control()
                .postReceive(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 84, testbed.key(), Testbed.BASE + 0x8000, 4096));
        testbed.control().invalidateRegion(buffer);
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());

        final int mark = testbed.peer().mark();
        final List<PeerConnection.Segment> first =
                testbed.connection().sendMessage(0, Testbed.randomBytes(LENGTH, 83), 0);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack(NackCode.REMOTE_ACCESS)
                                .connection(Testbed.TESTER_CONNECTION)
                                .psn(first.get(0).psn()),
                        Testbed.WAIT);
        assertThat(completions.awaitWrId(83, "11.1.7: the receive 83 completes").status())
                .as("11.1.7: a receive whose buffer was invalidated before a SEND consumed it")
                .isEqualTo(CompletionStatus.LOCAL_PROTECTION_ERROR);
        // The NACKed SEND consumed receive 83, so the next SEND of the stream matches receive 84.
        final byte[] second = Testbed.randomBytes(LENGTH, 84);
        testbed.connection().sendMessage(0, second, 0);
        final DutCompletion next = completions.awaitWrId(84, "11.1.7: the receive 84 completes");
        assertThat(next.status())
                .as("11.1.7: the SEND after it fills the next receive: the NACKed SEND consumed receive 83")
                .isEqualTo(CompletionStatus.SUCCESS);
        TesterMessages.assertMemory(
                testbed, "11.1.7: the second SEND lands in receive 84", testbed.key(), Testbed.BASE + 0x8000, second);
    }

    /** A region of its own, with LOCAL_WRITE only, for the buffer the case invalidates. */
    private static long localRegion(final Testbed testbed) throws Exception {
        return testbed.control().registerRegion(OTHER, OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE));
    }
}

package org.mrconf.cases.ordering;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.NotApplicable;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The peer's maximum outstanding messages per stream, given at setup (clauses 4.2.1 and 7.5.10). The tester sets it
 * to {@value #LIMIT}, has the DUT post {@value #MESSAGES} one-packet WRITEs on one stream, and acknowledges every
 * packet but those of MSN 0: MSN 1 can then be finished while MSN 0 is not, so the DUT's windows have room, and only
 * the limit keeps MSN {@value #LIMIT} and later back. Once MSN 0 is acknowledged too, every WRITE must go out and
 * complete: the messages waited, they were not dropped.
 *
 * <p>Only the DUT's own packets are judged, never time: a packet of MSN {@value #LIMIT} or later before the tester
 * acknowledged MSN 0 fails the case, whenever it came. Where the DUT's first windows keep MSN 1 back too (a window of
 * one packet), the limit cannot be told from the window, and the case says so.
 *
 * <p>The other half of the clause's "known finished": a NACK whose code fails the work request (Table 9-1) finishes a
 * message as surely as an ACK of every PSN. The DUT posts a WRITE longer than a path may have outstanding and the
 * {@value #LIMIT} one-packet WRITEs after it; the tester acknowledges none of the long WRITE, so part of it is unsent,
 * then NACKs one of its packets REMOTE_ACCESS and acknowledges what it sent, as a receiver that rejected it would. The
 * WRITE {@value #LIMIT} MSNs past the failed one must then go out and complete, and the failed one complete
 * REMOTE_ACCESS_ERROR. Once with the failed WRITE the oldest of its stream, and once behind a READ whose request is
 * acknowledged and whose data the tester withholds, so the failed WRITE is finished at the receiver but cannot complete
 * yet: a sender that takes "finished" from its own completions, or from every packet of the message acknowledged (the
 * unsent ones never are), then holds the waiting WRITE for good. Whether a message was held is never judged from
 * time, only whether the one released comes within {@link Testbed#WAIT}.
 */
@ExtendWith(DutExtension.class)
@DisplayName("The peer's maximum outstanding messages")
class PeerMessageLimitCase {
    private static final long REMOTE_ADDRESS = 0x00E6_0000L;
    private static final long REMOTE_KEY = 0x66;
    private static final int LIMIT = 2;
    private static final int MESSAGES = 5;
    private static final int LENGTH = 64;
    /** How much older than its own timestamp the echo of the stretching WRITE's ACK is. */
    private static final java.time.Duration STRETCH = java.time.Duration.ofMillis(300);
    /** Where the NACK tests' failed WRITE lands; the WRITEs after it go from {@link #FOLLOWING_ADDRESS}. */
    private static final long FAILED_ADDRESS = 0x00E7_0000L;

    private static final long FOLLOWING_ADDRESS = FAILED_ADDRESS + 0x40_0000L;
    private static final long FAILED_WR = 1600;
    private static final long READ_WR = 1610;

    @Test
    @DisplayName("the DUT starts no message of a stream the peer's limit past one not yet acknowledged, and sends it"
            + " once it is")
    @Verifies("7.5.10")
    @Verifies("4.2.1")
    void theDutKeepsBelowThePeersLimit(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1, spec -> spec.withPeerMaxOutstandingMessages(LIMIT))) {
            CaseSteps.stage(testbed, Testbed.BASE, LENGTH, 66);
            // The path's timer stretched far past the time MSN held is held back (one message, MSN 0), so that a
            // loaded host cannot let it fire and collapse the DUT's windows to one packet (10.1.3): a DUT that then
            // sent no second packet would read as one that keeps one packet in flight by choice.
            CaseSteps.stretchTheTimer(testbed, STRETCH, 1498, Testbed.BASE, LENGTH);
            // MSN held + 1 beside an unacknowledged MSN held needs two packets in flight: first windows of one are
            // grown first, with a message of their own, so the case's messages start at MSN held.
            final long held = 1
                    + CaseSteps.growPastOnePacket(
                            testbed, 1499, Testbed.BASE, REMOTE_ADDRESS + (long) MESSAGES * LENGTH, REMOTE_KEY);
            // Every packet but MSN held's is recorded as received and acknowledged at once, so it stays a hole.
            final Consumer<ReceivedPacket> allButTheFirst = received -> {
                final DataPacket data = received.data().orElse(null);
                if (data == null || !ours().test(received) || data.messageSequenceNumber() == held) {
                    return;
                }
                testbed.connection().onReceived(received);
                try {
                    testbed.peer().send(testbed.connection().ackFor(0, data.transmitTimestamp()));
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            testbed.peer().recorder().addListener(allButTheFirst);
            final int mark = testbed.peer().mark();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            try {
                for (int i = 0; i < MESSAGES; i++) {
                    testbed.control()
                            .postWrite(
                                    CaseSteps.request(testbed, 0, 1500 + i, Testbed.BASE, LENGTH),
                                    REMOTE_ADDRESS + (long) i * LENGTH,
                                    REMOTE_KEY);
                }
                final List<ReceivedPacket> sent =
                        TesterMessages.awaitStalled(testbed, mark, ours().firstTransmission());
                // A quiet of TesterMessages.STALL can be a loaded host's, not the DUT's choice: before reading it as
                // one packet in flight, give MSN held + 1 the bounded wait other cases give a second packet.
                if (sent.stream().noneMatch(p -> msnOf(p) == held + 1)
                        && CaseSteps.awaitWhileOthersHeld(
                                        testbed,
                                        mark,
                                        ours().firstTransmission()
                                                .where(
                                                        "MSN " + (held + 1),
                                                        DataPacket.class,
                                                        d -> d.messageSequenceNumber() == held + 1))
                                .isEmpty()) {
                    throw NotApplicable.because("the device's configuration: the DUT sent no packet of MSN "
                            + (held + 1)
                            + " while MSN " + held + " was unacknowledged (it keeps one packet in flight, which section"
                            + " 10 allows), so its windows cannot be told from the limit of " + LIMIT + "; windows of"
                            + " two packets or more would exercise it");
                }
                // The DUT's quiet window, ACKs still flowing: a DUT that ignores the limit sends the next MSN as soon
                // as
                // an ACK frees its window, and a loaded host may take longer than the short quiet above to show it.
                Thread.sleep(testbed.quiet().toMillis());
            } finally {
                testbed.peer().recorder().removeListener(allButTheFirst);
            }
            final List<Long> beyond = testbed.peer().recorder().matching(mark, ours()).stream()
                    .map(PeerMessageLimitCase::msnOf)
                    .filter(msn -> msn >= held + LIMIT)
                    .distinct()
                    .toList();
            assertThat(beyond)
                    .as(
                            "7.5.10: MSNs sent while MSN %d was not acknowledged, with the tester's limit of %d"
                                    + " outstanding messages per stream given at setup",
                            held, LIMIT)
                    .isEmpty();

            // Release: acknowledge everything from now on, MSN 0 included; every WRITE must go out and complete.
            testbed.connection().autoAck(true);
            try {
                final ReceivedPacket first = testbed.peer().await(mark, ours().msn(held), Testbed.WAIT);
                testbed.connection().onReceived(first);
                testbed.peer()
                        .send(testbed.connection()
                                .ackFor(0, first.data().orElseThrow().transmitTimestamp()));
                for (int i = 0; i < MESSAGES; i++) {
                    assertThat(completions
                                    .awaitWrId(1500 + i, "7.5.10: a WRITE that waited is sent once the limit allows")
                                    .status())
                            .as("7.5.10: WRITE %d completes once every WRITE before it is acknowledged", 1500 + i)
                            .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
                }
            } finally {
                testbed.connection().autoAck(false);
            }
        }
    }

    @Test
    @DisplayName(
            "a NACK that fails the oldest message of a stream, none of whose PSNs is acknowledged, lets the message"
                    + " the peer's limit past it go")
    @Verifies("7.5.10")
    void aNackThatFailsTheOldestMessageReleasesTheOneWaiting(final DeviceUnderTest dut) throws Exception {
        nackReleasesTheWaitingMessage(dut, false);
    }

    @Test
    @DisplayName("a NACK that fails a message whose completion waits behind a READ's data lets the message the peer's"
            + " limit past it go")
    @Verifies("7.5.10")
    void aNackThatFailsAMessageBehindAReadReleasesTheOneWaiting(final DeviceUnderTest dut) throws Exception {
        nackReleasesTheWaitingMessage(dut, true);
    }

    /**
     * The NACK half of clause 7.5.10: a two-packet WRITE whose PSNs the tester never acknowledges, then {@value #LIMIT}
     * one-packet WRITEs, which the tester acknowledges as they come; the last is {@value #LIMIT} MSNs past the first.
     * With {@code readAhead}, a READ goes first, its request acknowledged and its data withheld until the end.
     */
    private static void nackReleasesTheWaitingMessage(final DeviceUnderTest dut, final boolean readAhead)
            throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1, spec -> spec.withPeerMaxOutstandingMessages(LIMIT))) {
            if (readAhead) {
                TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.READ);
            }
            // Longer than a path may have outstanding (256 PSNs, clause 6.1.3), so part of it is unsent when the NACK
            // comes, whatever windows the device declares: a sender that counts the message's packets acknowledged
            // never
            // sees them all. From a region of its own, as long.
            final int payload = testbed.connection().maxPayload(Opcode.WRITE);
            final int failedLength = (256 + 8) * payload;
            final long failedSource = Testbed.BASE + 8L * Testbed.REGION;
            final long failedKey = testbed.control()
                    .registerRegion(
                            failedSource, failedLength, java.util.EnumSet.of(org.mrconf.dut.RegionAccess.LOCAL_WRITE));
            CaseSteps.stage(testbed, Testbed.BASE, LENGTH, 67);
            CaseSteps.growPastOnePacket(testbed, 1699, Testbed.BASE, FOLLOWING_ADDRESS + 0x8000L, REMOTE_KEY);
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            ReceivedPacket readRequest = null;
            if (readAhead) {
                final int before = testbed.peer().mark();
                testbed.control()
                        .postRead(
                                CaseSteps.request(testbed, 0, READ_WR, Testbed.BASE + 0x8_0000L, LENGTH),
                                REMOTE_ADDRESS,
                                REMOTE_KEY);
                readRequest = testbed.peer()
                        .await(
                                before,
                                org.mrconf.cases.DutTraffic.dataFromDut().opcode(Opcode.READ_REQUEST),
                                Testbed.WAIT);
                // Its one PSN acknowledged: the READ is finished at the receiver (7.5.10), though it waits for data.
                CaseSteps.acknowledge(testbed, readRequest);
            }
            // Every packet of the WRITEs after the failed one is recorded and acknowledged at once; none of the failed
            // WRITE's is before the NACK, and every one after it, as a receiver that rejected the WRITE would: its
            // later
            // packets are stale (7.5.6), and a packet held unacknowledged would hold the DUT's windows, which may be
            // one.
            final java.util.concurrent.atomic.AtomicBoolean nacked = new java.util.concurrent.atomic.AtomicBoolean();
            final Consumer<ReceivedPacket> allButTheFailed = received -> {
                if (!(nacked.get() ? nackCase() : following()).test(received)) {
                    return;
                }
                testbed.connection().onReceived(received);
                try {
                    testbed.peer()
                            .send(testbed.connection()
                                    .ackFor(0, received.data().orElseThrow().transmitTimestamp()));
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
            };
            testbed.peer().recorder().addListener(allButTheFailed);
            final int mark = testbed.peer().mark();
            try {
                testbed.control()
                        .postWrite(
                                new org.mrconf.dut.WorkRequest(
                                        Testbed.DUT_CONNECTION, 0, FAILED_WR, failedKey, failedSource, failedLength),
                                FAILED_ADDRESS,
                                REMOTE_KEY);
                for (int i = 1; i <= LIMIT; i++) {
                    testbed.control()
                            .postWrite(
                                    CaseSteps.request(testbed, 0, FAILED_WR + i, Testbed.BASE, LENGTH),
                                    FOLLOWING_ADDRESS + (long) (i - 1) * LENGTH,
                                    REMOTE_KEY);
                }
                final ReceivedPacket named = testbed.peer().await(mark, failed().firstTransmission(), Testbed.WAIT);
                final long failedMsn = msnOf(named);
                final long waitingMsn = (failedMsn + LIMIT) & 0xFFFF_FFFFL;
                // Windows full, or the limit reached: before the NACK, nothing of the failed WRITE is acknowledged.
                TesterMessages.awaitStalled(testbed, mark, nackCase().firstTransmission());
                final List<Long> early = testbed.peer().recorder().matching(mark, nackCase()).stream()
                        .map(PeerMessageLimitCase::msnOf)
                        .filter(msn -> ((msn - failedMsn) & 0xFFFF_FFFFL) >= LIMIT
                                && ((msn - failedMsn) & 0xFFFF_FFFFL) < 1L << 31)
                        .distinct()
                        .toList();
                assertThat(early)
                        .as(
                                "7.5.10: MSNs sent while no PSN of MSN %d was acknowledged, with the tester's limit of"
                                        + " %d outstanding messages per stream given at setup",
                                failedMsn, LIMIT)
                        .isEmpty();

                testbed.peer()
                        .send(org.mrconf.cases.DutTraffic.nackOf(
                                named.data().orElseThrow(),
                                org.mrconf.wire.NackCode.REMOTE_ACCESS,
                                Testbed.DUT_CONNECTION));
                // A receiver records the PSN it NACKs REMOTE_ACCESS (9.1.4), and acknowledges the rejected WRITE's
                // later
                // packets, stale (7.5.6): those the DUT sent, not its unsent rest, which the NACK stops (9.1.7).
                nacked.set(true);
                final List<ReceivedPacket> sentOfTheFailed =
                        testbed.peer().recorder().matching(mark, failed());
                for (final ReceivedPacket packet : sentOfTheFailed) {
                    testbed.connection().onReceived(packet);
                }
                testbed.peer()
                        .send(testbed.connection()
                                .ackFor(
                                        0,
                                        sentOfTheFailed
                                                .get(sentOfTheFailed.size() - 1)
                                                .data()
                                                .orElseThrow()
                                                .transmitTimestamp()));
                final java.util.Optional<ReceivedPacket> released = testbed.peer()
                        .recorder()
                        .awaitFirst(
                                mark,
                                following()
                                        .firstTransmission()
                                        .where(
                                                "MSN " + waitingMsn,
                                                DataPacket.class,
                                                d -> d.messageSequenceNumber() == waitingMsn),
                                Testbed.WAIT);
                assertThat(released)
                        .as(
                                "7.5.10: MSN %d, %d past MSN %d, is sent once a NACK REMOTE_ACCESS named a PSN of MSN"
                                        + " %d, which finishes it (Table 9-1: the NACK fails the work request)%s; the"
                                        + " tester acknowledged every packet the DUT sent after that NACK",
                                waitingMsn,
                                LIMIT,
                                failedMsn,
                                failedMsn,
                                readAhead
                                        ? ", though its completion waits for the READ before it, whose request the"
                                                + " tester acknowledged and whose data it withholds"
                                        : "")
                        .isPresent();
            } finally {
                testbed.peer().recorder().removeListener(allButTheFailed);
            }

            // Release: every packet the DUT sent is acknowledged from now on, and the READ answered.
            testbed.connection().autoAck(true);
            try {
                for (final ReceivedPacket packet : testbed.peer().recorder().matching(mark, nackCase())) {
                    testbed.connection().onReceived(packet);
                }
                final List<ReceivedPacket> sent = testbed.peer().recorder().matching(mark, nackCase());
                testbed.peer()
                        .send(testbed.connection()
                                .ackFor(
                                        0,
                                        sent.get(sent.size() - 1)
                                                .data()
                                                .orElseThrow()
                                                .transmitTimestamp()));
                if (readRequest != null) {
                    final DataPacket read = readRequest.data().orElseThrow();
                    final int segment = testbed.connection().maxPayload(Opcode.READ_RESPONSE);
                    final byte[] data = Testbed.randomBytes(LENGTH, 68);
                    for (int i = 0; i < CaseSteps.segments(LENGTH, segment); i++) {
                        testbed.connection()
                                .sendNew(
                                        CaseSteps.readResponseTo(testbed.connection(), read, data, segment, i, 0)
                                                .ackRequest(),
                                        0);
                    }
                    assertThat(completions
                                    .awaitWrId(READ_WR, "7.5.10 set-up: the READ completes once answered")
                                    .status())
                            .as("7.5.10 set-up: the READ before the failed WRITE")
                            .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
                }
                assertThat(completions
                                .awaitWrId(FAILED_WR, "9.1.2: the WRITE a NACK REMOTE_ACCESS failed completes")
                                .status())
                        .as("9.1.2: the WRITE NACKed REMOTE_ACCESS completes with the error naming the code")
                        .isEqualTo(org.mrconf.dut.CompletionStatus.REMOTE_ACCESS_ERROR);
                for (int i = 1; i <= LIMIT; i++) {
                    assertThat(completions
                                    .awaitWrId(
                                            FAILED_WR + i,
                                            "7.5.10: a WRITE after the failed one completes once acknowledged")
                                    .status())
                            .as("7.5.10: WRITE %d completes once acknowledged", FAILED_WR + i)
                            .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
                }
            } finally {
                testbed.connection().autoAck(false);
            }
        }
    }

    /** The failed WRITE of the NACK tests. */
    private static PacketMatcher failed() {
        return writesTo(FAILED_ADDRESS, FAILED_ADDRESS + 1, "the WRITE the tester NACKs");
    }

    /** The WRITEs after the failed one, which the tester acknowledges as they come. */
    private static PacketMatcher following() {
        return writesTo(
                FOLLOWING_ADDRESS, FOLLOWING_ADDRESS + (long) LIMIT * LENGTH, "a WRITE after the one the tester NACKs");
    }

    /** Every WRITE of the NACK tests. */
    private static PacketMatcher nackCase() {
        return writesTo(FAILED_ADDRESS, FOLLOWING_ADDRESS + (long) LIMIT * LENGTH, "one of the case's WRITEs");
    }

    private static PacketMatcher writesTo(final long from, final long to, final String what) {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .where(what, DataPacket.class, p -> p.remoteAddress() >= from && p.remoteAddress() < to);
    }

    private static long msnOf(final ReceivedPacket packet) {
        return packet.data().orElseThrow().messageSequenceNumber();
    }

    private static PacketMatcher ours() {
        return PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .where(
                        "one of the case's WRITEs",
                        DataPacket.class,
                        p -> p.remoteAddress() >= REMOTE_ADDRESS
                                && p.remoteAddress() < REMOTE_ADDRESS + (long) MESSAGES * LENGTH);
    }
}

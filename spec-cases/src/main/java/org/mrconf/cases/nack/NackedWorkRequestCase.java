package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * The DUT sends a one-packet message; the tester, as a conforming receiver would (clause 9.1.6), rejects it with a
 * NACK of a code whose action fails the work request and then sends the ACK that reports the rejected PSN as
 * received (clause 9.1.4). The work request must complete with the error that names the code, never SUCCESS: the
 * ACK only says that the PSN is final, not that the data was placed (clauses 9.1.2, 7.5.8, 9.1.7). A one-packet
 * message is the sharpest form of the test: the one ACK covers every PSN of the message.
 */
@ExtendWith(DutExtension.class)
@DisplayName("NACKed work requests")
class NackedWorkRequestCase {
    private static final long REMOTE_ADDRESS = 0x00CD_0000L;
    private static final long REMOTE_KEY = 0x99;
    private static final int LENGTH = 256;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE NACKed REMOTE_ACCESS completes with REMOTE_ACCESS_ERROR, although an ACK then covers it")
    @Verifies("9.1.2")
    @Verifies("9.1.7")
    @Verifies("7.5.8")
    void remoteAccessFailsTheWrite(final Testbed testbed) throws Exception {
        assertFailsWith(testbed, Opcode.WRITE, NackCode.REMOTE_ACCESS, CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE NACKed BOUNDS completes with REMOTE_BOUNDS_ERROR, although an ACK then covers it")
    @Verifies("9.1.2")
    @Verifies("9.1.7")
    @Verifies("7.5.8")
    void boundsFailsTheWrite(final Testbed testbed) throws Exception {
        assertFailsWith(testbed, Opcode.WRITE, NackCode.BOUNDS, CompletionStatus.REMOTE_BOUNDS_ERROR);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE NACKed INVALID_REQUEST completes with REMOTE_INVALID_REQUEST, although an ACK then covers it")
    @Verifies("9.1.2")
    @Verifies("9.1.7")
    void invalidRequestFailsTheWrite(final Testbed testbed) throws Exception {
        assertFailsWith(testbed, Opcode.WRITE, NackCode.INVALID_REQUEST, CompletionStatus.REMOTE_INVALID_REQUEST);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName(
            "a SEND NACKed MESSAGE_TOO_LONG completes with REMOTE_MESSAGE_TOO_LONG, although an ACK then covers it")
    @Verifies("9.1.2")
    @Verifies("9.1.7")
    void messageTooLongFailsTheSend(final Testbed testbed) throws Exception {
        assertFailsWith(testbed, Opcode.SEND, NackCode.MESSAGE_TOO_LONG, CompletionStatus.REMOTE_MESSAGE_TOO_LONG);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a SEND NACKed BOUNDS, a code no SEND earns, completes with REMOTE_BOUNDS_ERROR: the code's action is"
            + " taken whatever the opcode")
    @Verifies("9.1.2")
    @Verifies("9.1.7")
    void boundsFailsASend(final Testbed testbed) throws Exception {
        assertFailsWith(testbed, Opcode.SEND, NackCode.BOUNDS, CompletionStatus.REMOTE_BOUNDS_ERROR);
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a NACK that the ACK of its PSN overtook still fails the WRITE, which is unfinished: never SUCCESS,"
            + " however its other PSNs are acknowledged")
    @Verifies("9.1.7")
    void aNackOvertakenByTheAckOfItsPsnFailsTheUnfinishedWrite(final Testbed testbed) throws Exception {
        final int payload = testbed.connection().maxPayload(Opcode.WRITE);
        final int length = 4 * payload;
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(length, 25));
        final org.mrconf.peer.ReceivedPacket first = org.mrconf.cases.DutTraffic.postWriteAndAwaitFirst(
                testbed, 35, Testbed.BASE, length, REMOTE_ADDRESS, REMOTE_KEY);
        final DataPacket named = first.data().orElseThrow();
        // The ACK of that one packet comes first, then the NACK that names it: the ACK overtook the NACK. The WRITE's
        // other packets are unacknowledged, so it is unfinished and the NACK is not late (9.1.7, Table 5-13).
        int next = testbed.peer().mark();
        org.mrconf.cases.CaseSteps.acknowledge(testbed, first);
        testbed.peer()
                .send(org.mrconf.cases.DutTraffic.nackOf(named, NackCode.REMOTE_ACCESS, Testbed.DUT_CONNECTION)
                        .cumulativePsn(Psn.add(named.header().psn(), 1)));
        // Every packet of the WRITE that comes is acknowledged, so each of its PSNs becomes final: the work request's
        // outcome can only come from the NACK. (Whether the DUT sends the rest after the NACK is not judged.)
        final long deadline = System.nanoTime() + Testbed.WAIT.toNanos();
        java.util.Optional<DutCompletion> completion = java.util.Optional.empty();
        while (completion.isEmpty() && System.nanoTime() - deadline < 0) {
            final java.util.List<org.mrconf.peer.ReceivedPacket> arrived =
                    testbed.peer().recorder().since(next);
            next += arrived.size();
            for (final org.mrconf.peer.ReceivedPacket packet : arrived) {
                if (packet.data()
                        .filter(d -> d.header().destinationConnectionId() == Testbed.TESTER_CONNECTION
                                && d.opcode() == Opcode.WRITE
                                && d.messageSequenceNumber() == named.messageSequenceNumber())
                        .isPresent()) {
                    org.mrconf.cases.CaseSteps.acknowledge(testbed, packet);
                }
            }
            completion = testbed.completionWithin(35, java.time.Duration.ofMillis(50));
        }
        assertThat(completion)
                .as("9.1.7: the WRITE completes once the NACK failed it")
                .isPresent();
        assertThat(completion.orElseThrow().status())
                .as("9.1.7: a NACK is matched by its PSN whether that PSN is outstanding or an ACK that overtook the"
                        + " NACK acknowledged it; the WRITE was unfinished, so it fails with the NACK's error")
                .isEqualTo(CompletionStatus.REMOTE_ACCESS_ERROR);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName(
            "a fatal NACK of a READ_RESPONSE PSN stops the response: no packet of it not yet sent goes out, however"
                    + " the window opens")
    @Verifies("9.1.7")
    void aFatalNackOfAReadResponseStopsTheRest(final org.mrconf.cases.DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            org.mrconf.cases.TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.READ);
            final org.mrconf.peer.PeerConnection connection = testbed.connection();
            final int payload = connection.maxPayload(Opcode.READ_RESPONSE);
            // Longer than a path may have outstanding (256 PSNs, clause 6.1.3), so part of the response is unsent while
            // the tester acknowledges nothing, whatever windows the device declares; from a region of its own, as long.
            final int length = (256 + 8) * payload;
            final long address = Testbed.BASE + 8L * Testbed.REGION;
            final long source = testbed.control()
                    .registerRegion(address, length, java.util.EnumSet.of(org.mrconf.dut.RegionAccess.REMOTE_READ));
            final org.mrconf.cases.TesterMessages.StalledResponse stalled =
                    org.mrconf.cases.TesterMessages.stalledReadResponse(
                            testbed, address, source, length, 0x5EEE, "9.1.7");
            final java.util.List<org.mrconf.peer.ReceivedPacket> before = stalled.sent();
            final DataPacket named = before.get(0).data().orElseThrow();
            final long sentBytes = stalled.sentBytes();
            final java.util.Map<String, Long> counters = testbed.counters();
            testbed.peer()
                    .send(org.mrconf.cases.DutTraffic.nackOf(named, NackCode.INVALID_REQUEST, Testbed.DUT_CONNECTION));
            // The DUT has taken the NACK in once it counted it; then every PSN it sent is acknowledged, so its window
            // opens: a response that goes on now sends PSNs it had not sent.
            testbed.awaitGrowth(counters, org.mrconf.dut.DutCounters.RX_PACKETS, 1);
            final int acknowledged = testbed.peer().mark();
            org.mrconf.cases.TesterMessages.acknowledgeEverythingSent(
                    testbed, stalled.mark(), named.transmitTimestamp());
            final java.util.Set<Long> sentBefore = new java.util.HashSet<>();
            for (final org.mrconf.peer.ReceivedPacket packet : before) {
                sentBefore.add(packet.data().orElseThrow().header().psn());
            }
            final java.util.List<org.mrconf.peer.ReceivedPacket> after = new java.util.ArrayList<>();
            Thread.sleep(testbed.quiet().multipliedBy(2).toMillis());
            for (final org.mrconf.peer.ReceivedPacket packet :
                    testbed.peer().recorder().matching(acknowledged, stalled.response())) {
                if (!sentBefore.contains(packet.data().orElseThrow().header().psn())) {
                    after.add(packet);
                }
            }
            assertThat(after)
                    .as(
                            "9.1.7: after a NACK INVALID_REQUEST named a PSN of the READ_RESPONSE, the responder sends no packet"
                                    + " of that response not yet sent (%d of %d bytes were sent before it)",
                            sentBytes, length)
                    .isEmpty();
        }
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a late NACK of a READ_RESPONSE PSN the DUT sent fails no work request of the DUT, though the READ's"
            + " MSN is also that of the DUT's own WRITE of the stream")
    @Verifies("9.1.7")
    void aLateNackOfAReadResponseFailsNoWorkRequest(final Testbed testbed) throws Exception {
        org.mrconf.cases.TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.READ);
        final org.mrconf.peer.PeerConnection connection = testbed.connection();
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(LENGTH, 23));
        // The tester's READ takes MSN m of its own space on stream 0; the DUT's READ_RESPONSE carries m (7.5.7).
        final long readMsn = connection.nextMsn(0);
        int mark = testbed.peer().mark();
        connection.readRequest(0, Testbed.BASE, testbed.key(), LENGTH, 0x5EED, 0);
        final org.mrconf.peer.ReceivedPacket response = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .opcode(Opcode.READ_RESPONSE)
                                .connection(Testbed.TESTER_CONNECTION),
                        Testbed.WAIT);
        final DataPacket answered = response.data().orElseThrow();
        org.mrconf.cases.CaseSteps.acknowledge(testbed, response);

        // The DUT's own first WRITE of stream 0 takes MSN 0 of the DUT's space, as the READ did of the tester's.
        final DataPacket write = org.mrconf.cases.DutTraffic.postWriteAndAwaitFirst(
                        testbed, 33, Testbed.BASE, LENGTH, REMOTE_ADDRESS, REMOTE_KEY)
                .data()
                .orElseThrow();
        if (write.messageSequenceNumber() != readMsn) {
            throw org.mrconf.cases.Inconclusive.because("the DUT's WRITE has MSN " + write.messageSequenceNumber()
                    + " and the READ " + readMsn + ": the collision the case needs did not arise");
        }
        final java.util.Map<String, Long> before = testbed.counters();
        // The late NACK: it names the READ_RESPONSE's PSN, acknowledged already, with the READ's stream and MSN.
        testbed.peer()
                .send(org.mrconf.cases.DutTraffic.nackOf(answered, NackCode.INVALID_REQUEST, Testbed.DUT_CONNECTION));
        assertThat(testbed.awaitGrowth(before, org.mrconf.dut.DutCounters.RX_STALE, 1))
                .as("5.6.5 (Table 5-13): a NACK of a PSN no longer outstanding whose message is finished is stale")
                .isEqualTo(1);
        testbed.peer()
                .send(PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(write.header().pathId())
                        .cumulativePsn(Psn.add(write.header().psn(), 1))
                        .echoedTimestamp(write.transmitTimestamp()));
        assertThat(testbed.awaitCompletion(33).status())
                .as(
                        "9.1.7: a NACK is matched by the PSN it names, which carried a READ_RESPONSE: the DUT's WRITE with the"
                                + " same stream and MSN is not the work request it names")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a NACK of a WRITE whose every PSN was acknowledged is late and stale, though its completion still"
            + " waits for an earlier message of its stream: it completes SUCCESS")
    @Verifies("9.1.7")
    void finishedBeforeItsCompletionIsDelivered(final org.mrconf.cases.DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 1, 1)) {
            testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(2 * LENGTH, 24));
            final org.mrconf.cases.CaseSteps.CompletionLog completions =
                    new org.mrconf.cases.CaseSteps.CompletionLog(testbed.control());
            if (testbed.profile().claims(org.mrconf.catalogue.Profile.READ)) {
                behindAReadWaitingForItsData(testbed, completions);
            } else {
                behindAnUnacknowledgedWrite(testbed, completions);
            }
        }
    }

    /**
     * The earlier message is a READ whose request is acknowledged and whose data the tester holds back; the WRITE after
     * it is acknowledged cumulatively, so its PSN is no longer outstanding, then NACKed: late, stale and counted
     * {@code rx_stale} (Table 5-13), and the WRITE completes SUCCESS once the READ has its data.
     */
    private static void behindAReadWaitingForItsData(
            final Testbed testbed, final org.mrconf.cases.CaseSteps.CompletionLog completions) throws Exception {
        final DataPacket request = org.mrconf.cases.DutTraffic.postReadAndAcknowledgeItsRequest(
                testbed,
                new WorkRequest(Testbed.DUT_CONNECTION, 0, 43, testbed.key(), Testbed.BASE + 0x4000, LENGTH),
                REMOTE_ADDRESS + 0x1000,
                REMOTE_KEY);
        final org.mrconf.peer.ReceivedPacket sent = org.mrconf.cases.DutTraffic.postWriteAndAwaitFirst(
                testbed, 42, Testbed.BASE, LENGTH, REMOTE_ADDRESS, REMOTE_KEY);
        final DataPacket write = sent.data().orElseThrow();
        final java.util.Map<String, Long> before = testbed.counters();
        // The ACK, then on the same path the NACK: the WRITE is finished before the NACK arrives (9.1.7).
        testbed.peer()
                .send(org.mrconf.cases.CaseSteps.ack(
                        write.header().pathId(), Psn.add(write.header().psn(), 1), write.transmitTimestamp()));
        testbed.peer()
                .send(org.mrconf.cases.DutTraffic.nackOf(write, NackCode.REMOTE_ACCESS, Testbed.DUT_CONNECTION)
                        .cumulativePsn(Psn.add(write.header().psn(), 1)));
        assertThat(testbed.awaitGrowth(before, org.mrconf.dut.DutCounters.RX_STALE, 1))
                .as("5.6.5 (Table 5-13), 9.1.7: a NACK of an acknowledged PSN whose WRITE is finished is stale, though"
                        + " the WRITE's completion waits for the READ before it")
                .isPositive();
        // The READ's data: the READ completes, and the WRITE after it.
        final org.mrconf.peer.PeerConnection connection = testbed.connection();
        connection.sendNew(
                org.mrconf.cases.CaseSteps.readResponseTo(
                                connection,
                                request,
                                Testbed.randomBytes(LENGTH, 43),
                                connection.maxPayload(Opcode.READ_RESPONSE),
                                0,
                                0)
                        .ackRequest(),
                0);
        final java.util.List<DutCompletion> both =
                completions.await(c -> c.wrId() == 42 || c.wrId() == 43, 2, "9.1.7: the READ and the WRITE complete");
        assertThat(both.stream().map(DutCompletion::wrId).toList())
                .as("7.5.2: completions in MSN order")
                .containsExactly(43L, 42L);
        assertThat(both.get(0).status()).as("the READ").isEqualTo(CompletionStatus.SUCCESS);
        assertThat(both.get(1).status())
                .as("9.1.7: a message is finished once an ACK has acknowledged every one of its PSNs, whether or not"
                        + " its completion was delivered; a NACK after that is stale and fails nothing")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    /**
     * Without READ: the earlier message is a WRITE whose PSN the tester leaves unacknowledged, while an ACK reports the
     * later WRITE's PSN received in its SACK bits, so the later WRITE is finished (every PSN acknowledged) and its
     * completion waits. Whether a PSN reported in SACK bits is still "outstanding" for Table 5-13's counters is not
     * judged here; only that the NACK fails nothing.
     */
    private static void behindAnUnacknowledgedWrite(
            final Testbed testbed, final org.mrconf.cases.CaseSteps.CompletionLog completions) throws Exception {
        // The DUT's timer is stretched first, so that WRITE 41's does not fire before WRITE 42 is posted (an expiry
        // may take the windows down to one packet, 10.1.3) nor before the tester's ACK.
        org.mrconf.cases.CaseSteps.stretchTheTimer(
                testbed, java.time.Duration.ofMillis(400), 39, Testbed.BASE + 0x3000, LENGTH);
        org.mrconf.cases.CaseSteps.growPastOnePacket(testbed, 40, Testbed.BASE + 0x3000, REMOTE_ADDRESS, REMOTE_KEY);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 41, testbed.key(), Testbed.BASE + LENGTH, LENGTH),
                        REMOTE_ADDRESS + LENGTH,
                        REMOTE_KEY);
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 42, testbed.key(), Testbed.BASE, LENGTH),
                        REMOTE_ADDRESS,
                        REMOTE_KEY);
        final PacketMatcher first = PacketMatcher.expect()
                .data()
                .opcode(Opcode.WRITE)
                .connection(Testbed.TESTER_CONNECTION)
                .firstTransmission();
        final DataPacket earlier = testbed.peer()
                .await(
                        mark,
                        first.where("of WRITE 41", DataPacket.class, d -> d.remoteAddress() == REMOTE_ADDRESS + LENGTH),
                        Testbed.WAIT)
                .data()
                .orElseThrow();
        final java.util.Optional<org.mrconf.peer.ReceivedPacket> held = org.mrconf.cases.CaseSteps.awaitWhileOthersHeld(
                testbed, mark, first.where("of WRITE 42", DataPacket.class, d -> d.remoteAddress() == REMOTE_ADDRESS));
        if (held.isEmpty()) {
            throw org.mrconf.cases.NotApplicable.because("the device's configuration: without the read profile the"
                    + " earlier message must be a WRITE held unacknowledged, and the DUT sent WRITE 42 only once WRITE"
                    + " 41 was acknowledged (one packet in flight, which section 10 allows); the read profile or first"
                    + " windows of two packets would exercise it");
        }
        final DataPacket later = held.get().data().orElseThrow();
        final int path = later.header().pathId();
        testbed.peer()
                .send(org.mrconf.cases.CaseSteps.ack(
                        path,
                        earlier.header().psn(),
                        later.transmitTimestamp(),
                        later.header().psn()));
        testbed.peer()
                .send(org.mrconf.cases.DutTraffic.nackOf(later, NackCode.REMOTE_ACCESS, Testbed.DUT_CONNECTION)
                        .cumulativePsn(earlier.header().psn()));
        testbed.peer()
                .send(PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .cumulativePsn(Psn.add(later.header().psn(), 1))
                        .echoedTimestamp(later.transmitTimestamp()));
        final java.util.List<DutCompletion> both =
                completions.await(c -> c.wrId() == 41 || c.wrId() == 42, 2, "9.1.7: WRITEs 41 and 42 complete");
        assertThat(both.stream().map(DutCompletion::wrId).toList())
                .as("7.5.2: completions in MSN order")
                .containsExactly(41L, 42L);
        assertThat(both.get(0).status()).as("WRITE 41").isEqualTo(CompletionStatus.SUCCESS);
        assertThat(both.get(1).status())
                .as("9.1.7: a message is finished once an ACK has acknowledged every one of its PSNs, whether or not"
                        + " its completion was delivered; a NACK after that is stale and fails nothing")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    private static void assertFailsWith(
            final Testbed testbed, final Opcode opcode, final NackCode code, final CompletionStatus expected)
            throws Exception {
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, Testbed.randomBytes(LENGTH, 21));
        final int mark = testbed.peer().mark();
        final WorkRequest request = new WorkRequest(Testbed.DUT_CONNECTION, 0, 31, testbed.key(), Testbed.BASE, LENGTH);
        if (opcode == Opcode.SEND) {
            testbed.control().postSend(request);
        } else {
            testbed.control().postWrite(request, REMOTE_ADDRESS, REMOTE_KEY);
        }

        final DataPacket sent = testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .opcode(opcode)
                                .connection(Testbed.TESTER_CONNECTION)
                                .firstTransmission(),
                        Testbed.WAIT)
                .data()
                .orElseThrow();
        assertThat(sent.messageLength()).isEqualTo(LENGTH);
        assertThat(sent.payloadLength())
                .as("the case needs a one-packet message")
                .isEqualTo(LENGTH);
        final int path = sent.header().pathId();
        final long psn = sent.header().psn();

        // What a conforming receiver sends (clause 9.1.6): the NACK, whose cumulative PSN is taken before the
        // rejected PSN is recorded, then the ACK that reports the recorded PSN.
        testbed.peer().send(org.mrconf.cases.DutTraffic.nackOf(sent, code, Testbed.DUT_CONNECTION));
        testbed.peer()
                .send(PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .cumulativePsn(psn + 1)
                        .echoedTimestamp(sent.transmitTimestamp()));

        final DutCompletion completion = testbed.awaitCompletion(31);
        assertThat(completion.status())
                .as("9.1.2: a work request with a NACKed PSN completes with the NACK's error, never SUCCESS")
                .isEqualTo(expected);
        assertThat(completion.stream()).isZero();
        assertThat(completion.msn()).isEqualTo(sent.messageSequenceNumber());
    }
}

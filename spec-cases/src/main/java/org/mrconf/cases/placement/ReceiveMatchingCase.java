package org.mrconf.cases.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * SEND matching at the DUT as receiver (clauses 7.3.1 to 7.3.3): the RSN, not the MSN, names the receive, counted per
 * stream over every receive ever posted; a SEND lands while earlier SENDs and earlier messages of other opcodes are
 * missing; a SEND for a receive not yet posted is refused and recoverable; a SEND longer than its receive is refused
 * whichever of its packets arrives first, and one exactly as long is not.
 */
@ExtendWith(DutExtension.class)
@DisplayName("SEND matching")
class ReceiveMatchingCase {
    private static final long RECEIVES = Testbed.BASE + 0x8_0000;
    private static final int BUFFER = 0x4000;

    @Test
    @DisplayName("a SEND lands in the receive its RSN names, with earlier SENDs and messages still missing")
    @Verifies("7.3.1")
    @Verifies("7.5.2")
    void sendLandsInTheReceiveItsRsnNames(final DeviceUnderTest dut) throws Exception {
        try (Testbed testbed = Testbed.open(dut, 2, 2)) {
            final PeerConnection connection = testbed.connection();
            final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
            final int segment = connection.maxPayload(Opcode.SEND);
            for (int r = 0; r < 3; r++) {
                testbed.control().postReceive(CaseSteps.request(testbed, 1, 100 + r, buffer(r), BUFFER + r));
            }
            testbed.control().postReceive(CaseSteps.request(testbed, 0, 200, buffer(5), BUFFER));
            // Stream 1: WRITE (MSN 0), SEND RSN 0 (MSN 1), WRITE (MSN 2), SEND RSN 1 (MSN 3), SEND RSN 2 (MSN 4).
            final Message write0 = Message.write(connection, 1, Testbed.randomBytes(100, 60));
            final Message send0 = Message.send(connection, 1, Testbed.randomBytes(segment + 10, 61));
            final Message write2 = Message.write(connection, 1, Testbed.randomBytes(100, 62));
            final Message send1 = Message.send(connection, 1, Testbed.randomBytes(700, 63));
            final Message send2 = Message.send(connection, 1, Testbed.randomBytes(2 * segment - 1, 64));
            final Message other = Message.send(connection, 0, Testbed.randomBytes(300, 65));

            send2.send(testbed, 1, 1);
            CaseSteps.awaitBytes(
                    testbed,
                    testbed.key(),
                    buffer(2) + segment,
                    send2.slice(1, segment),
                    "7.3.1: RSN 2 (MSN 4) in the third receive, at its offset, before RSN 0 and 1 arrived");
            send1.send(testbed, 0, 0);
            CaseSteps.awaitBytes(testbed, testbed.key(), buffer(1), send1.data, "7.3.1: RSN 1 in the second receive");
            other.send(testbed, 0, 1);
            CaseSteps.awaitBytes(
                    testbed, testbed.key(), buffer(5), other.data, "7.3.1: stream 0's RSN 0 in stream 0's receive");
            completions.await(c -> c.wrId() == 200, 1, "7.5.1: stream 0's SEND completes on its own");
            send2.send(testbed, 0, 0);
            send0.send(testbed, 1, 1);
            send0.send(testbed, 0, 0);
            CaseSteps.awaitBytes(testbed, testbed.key(), buffer(0), send0.data, "7.3.1: RSN 0 in the first receive");
            CaseSteps.awaitBytes(testbed, testbed.key(), buffer(2), send2.data, "7.3.1: RSN 2 in the third receive");
            assertThat(completions.drain(java.time.Duration.ofMillis(50)).stream()
                            .filter(c -> c.stream() == 1)
                            .toList())
                    .as("7.5.2: no receive of stream 1 completes while its MSN 0 is missing")
                    .isEmpty();
            write2.send(testbed, 0, 1);
            write0.send(testbed, 0, 0);
            final List<DutCompletion> done = completions.await(c -> c.stream() == 1, 3, "7.5.2: stream 1");
            assertThat(done)
                    .extracting(DutCompletion::wrId)
                    .as("7.5.2: MSN order")
                    .containsExactly(100L, 101L, 102L);
            assertThat(done)
                    .extracting(DutCompletion::length)
                    .containsExactly((long) send0.data.length, (long) send1.data.length, (long) send2.data.length);
            assertThat(done).allSatisfy(c -> assertThat(c.type()).isEqualTo(CompletionType.RECEIVE));

            // A receive posted after all this still counts from 0 over every receive ever posted on the stream.
            testbed.control().postReceive(CaseSteps.request(testbed, 1, 103, buffer(3), BUFFER));
            final Message send3 = Message.send(connection, 1, Testbed.randomBytes(50, 66));
            send3.send(testbed, 0, 1);
            CaseSteps.awaitBytes(testbed, testbed.key(), buffer(3), send3.data, "7.3.1: RSN 3 in the fourth receive");
            assertThat(completions.awaitWrId(103, "7.3.1: the late receive").status())
                    .isEqualTo(CompletionStatus.SUCCESS);
        }
    }

    @Test
    @DisplayName(
            "receives posted after earlier ones were filled and drained, more at once each time, still match by RSN")
    @Verifies("7.3.1")
    @Verifies("7.5.1")
    void receivesPostedAfterWrapAroundStillMatch(final Testbed testbed) throws Exception {
        // Rounds of 3, 5, 9 and 17 receives, each consumed before the next is posted: a ring of receives that starts
        // small has wrapped by the second round and must grow while it is wrapped. Each round's first SEND arrives
        // last, so only the RSN tells the receives apart, and the messages after it are held in progress while MSNs
        // that wrapped a small ring of messages make it grow. Bounded by the declared outstanding messages.
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int most = testbed.profile().conformance().limits().maxOutstandingMessages();
        final int segment = connection.maxPayload(Opcode.SEND);
        long wrId = 700;
        int seed = 300;
        for (final int wanted : new int[] {3, 5, 9, 17}) {
            final int count = Math.min(wanted, most);
            final long first = wrId;
            final List<Message> sends = new java.util.ArrayList<>();
            for (int r = 0; r < count; r++) {
                testbed.control().postReceive(CaseSteps.request(testbed, 0, wrId++, ring(r), 0x1000));
                sends.add(Message.send(connection, 0, Testbed.randomBytes(Math.min(segment, 200 + 7 * r), seed++)));
            }
            // The first SEND last: the others wait for it, so a ring of messages grows while it holds them.
            for (int r = 1; r < count; r++) {
                sends.get(r).send(testbed, 0, 0);
            }
            sends.get(0).send(testbed, 0, 0);
            for (int r = 0; r < count; r++) {
                CaseSteps.awaitBytes(
                        testbed,
                        testbed.key(),
                        ring(r),
                        sends.get(r).data,
                        "7.3.1: in a round of " + count + " receives, RSN " + sends.get(r).rsn + " in receive " + r
                                + " of the round");
            }
            final List<DutCompletion> done =
                    completions.await(c -> c.wrId() >= first && c.wrId() < first + count, count, "7.5.1");
            assertThat(done)
                    .extracting(DutCompletion::wrId)
                    .as("7.5.1: each receive of the round of %d completes, in RSN order", count)
                    .containsExactlyElementsOf(java.util.stream.LongStream.range(first, first + count)
                            .boxed()
                            .toList());
            assertThat(done)
                    .extracting(DutCompletion::status)
                    .as("7.5.1: successfully")
                    .containsOnly(CompletionStatus.SUCCESS);
            if (count < wanted) {
                break;
            }
        }
    }

    private static long ring(final int index) {
        return RECEIVES + index * 0x1000L;
    }

    @Test
    @DisplayName(
            "a SEND for a receive not yet posted is NACKed RECEIVER_NOT_READY, not recorded, and lands once posted")
    @Verifies("7.3.2")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void sendBeforeItsReceiveIsRefusedAndRecovers(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int segment = connection.maxPayload(Opcode.SEND);
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 300, buffer(0), BUFFER));
        final Message first = Message.send(connection, 0, Testbed.randomBytes(64, 70));
        final Message second = Message.send(connection, 0, Testbed.randomBytes(segment + 64, 71));
        // RSN 1 has no receive yet: its second segment arrives first, on path 0.
        final long psn = connection.nextPsn(0);
        connection.setNextPsn(0, Psn.add(psn, 1));
        int mark = testbed.peer().mark();
        testbed.peer().send(second.packet(1, 0).psn(psn).ackRequest());
        final NackPacket nack = testbed.peer()
                .await(mark, PacketMatcher.expect().nack().path(0).psn(psn), Testbed.WAIT)
                .nack()
                .orElseThrow();
        assertThat(nack.code()).as("7.3.2: the NACK code").isEqualTo(NackCode.RECEIVER_NOT_READY);
        assertThat(nack.streamId()).as("7.3.2: the NACK names the stream").isZero();
        assertThat(nack.messageSequenceNumber()).as("7.3.2: and the MSN").isEqualTo(second.msn);
        // Not recorded: the next packet of the path is acknowledged with the refused PSN still missing.
        mark = testbed.peer().mark();
        first.send(testbed, 0, 0);
        final AckPacket ack = testbed.peer()
                .await(mark, PacketMatcher.expect().ack().path(0).covers(Psn.add(psn, 1)), Testbed.WAIT)
                .ack()
                .orElseThrow();
        assertThat(ack.cumulativePsn())
                .as("7.3.2: the refused PSN %d is not recorded as received", psn)
                .isEqualTo(psn);
        assertThat(completions.awaitWrId(300, "7.3.1: RSN 0").status()).isEqualTo(CompletionStatus.SUCCESS);
        CaseSteps.assertBytes(
                testbed, testbed.key(), buffer(1), CaseSteps.zeros(second.data.length), "7.3.2: nothing placed");

        // The receive is posted late; the sender's retry of the same PSN now lands.
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 301, buffer(1), BUFFER));
        mark = testbed.peer().mark();
        testbed.peer().send(second.packet(1, 0).psn(psn).retransmission().ackRequest());
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(psn), Testbed.WAIT);
        second.send(testbed, 0, 1);
        CaseSteps.awaitBytes(testbed, testbed.key(), buffer(1), second.data, "7.3.2: the retried SEND lands");
        final DutCompletion completion = completions.awaitWrId(301, "7.3.2: the late receive completes");
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).isEqualTo(second.data.length);
    }

    @Test
    @DisplayName("a SEND longer than its receive is refused whichever packet comes first; one exactly as long lands")
    @Verifies("7.3.3")
    @Kind(Kind.Purpose.INVALID)
    void sendLongerThanItsReceiveIsRefused(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int segment = connection.maxPayload(Opcode.SEND);
        final int length = 2 * segment - 100;
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 400, buffer(0), length));
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 401, buffer(1), length));
        final Message tooLong = Message.send(connection, 0, Testbed.randomBytes(length + 1, 80));
        final Message exact = Message.send(connection, 0, Testbed.randomBytes(length, 81));
        // The first segment to arrive lies wholly inside the buffer: only the message length betrays the SEND.
        final int mark = testbed.peer().mark();
        tooLong.send(testbed, 0, 0);
        final NackPacket nack = testbed.peer()
                .await(mark, PacketMatcher.expect().nack().path(0), Testbed.WAIT)
                .nack()
                .orElseThrow();
        assertThat(nack.code()).as("7.3.3: the NACK code").isEqualTo(NackCode.MESSAGE_TOO_LONG);
        tooLong.send(testbed, 1, 1);
        final DutCompletion refused = completions.awaitWrId(400, "7.3.3: the matched receive completes");
        assertThat(refused.status()).as("7.3.3: with a length error").isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
        CaseSteps.assertBytes(
                testbed,
                testbed.key(),
                buffer(0),
                CaseSteps.zeros(length + 64),
                "7.3.3: no byte of the too-long SEND placed, in or after the buffer");

        exact.send(testbed, 1, 0);
        exact.send(testbed, 0, 1);
        CaseSteps.awaitBytes(testbed, testbed.key(), buffer(1), exact.data, "7.3.3: a SEND as long as its buffer");
        assertThat(completions.awaitWrId(401, "7.3.1: the exact SEND").status()).isEqualTo(CompletionStatus.SUCCESS);
        CaseSteps.assertBytes(
                testbed, testbed.key(), buffer(1) + length, CaseSteps.zeros(64), "11.1.5: nothing after the buffer");
    }

    /** The receive buffers, each in its own 64 KiB of the region. */
    private static long buffer(final int index) {
        return RECEIVES + index * 0x1_0000L;
    }

    /** A message the tester built itself: its MSN and RSN taken at creation, its segments sent one by one. */
    private static final class Message {
        final PeerConnection connection;
        final Opcode opcode;
        final int stream;
        final long msn;
        final long rsn;
        final byte[] data;
        final int segment;

        private Message(final PeerConnection connection, final Opcode opcode, final int stream, final byte[] data) {
            this.connection = connection;
            this.opcode = opcode;
            this.stream = stream;
            this.msn = connection.claimMsn(stream);
            this.rsn = opcode == Opcode.SEND ? connection.claimRsn(stream) : -1;
            this.data = data;
            this.segment = connection.maxPayload(opcode);
        }

        static Message send(final PeerConnection connection, final int stream, final byte[] data) {
            return new Message(connection, Opcode.SEND, stream, data);
        }

        static Message write(final PeerConnection connection, final int stream, final byte[] data) {
            return new Message(connection, Opcode.WRITE, stream, data);
        }

        PacketBuilder packet(final int index, final int path) {
            final PacketBuilder b = CaseSteps.segment(connection, opcode, path, stream, msn, data, segment, index);
            return opcode == Opcode.SEND
                    ? b.rsn(rsn)
                    : b.remoteAddress(Testbed.BASE + 0x100 * msn + stream * 0x1000L)
                            .remoteKey(0);
        }

        /** Sends segment {@code index} as the next new packet of {@code path}. */
        void send(final Testbed testbed, final int index, final int path) throws Exception {
            PacketBuilder b = packet(index, path).ackRequest();
            if (opcode == Opcode.WRITE) {
                b = b.remoteKey(testbed.key());
            }
            connection.sendNew(b, path);
        }

        byte[] slice(final int index, final int size) {
            return java.util.Arrays.copyOfRange(data, index * size, Math.min(data.length, (index + 1) * size));
        }
    }
}

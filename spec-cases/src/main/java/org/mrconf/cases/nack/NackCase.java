package org.mrconf.cases.nack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.cases.TesterMessages.assertMemory;
import static org.mrconf.cases.TesterMessages.awaitNack;
import static org.mrconf.cases.TesterMessages.send;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.StallAllowance;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Negative acknowledgement (spec section 9), at both ends. As receiver the DUT answers each reason of Table 9-1 with
 * its code, changes nothing for the rejected packet, records its PSN for the final codes and not for the retryable
 * ones, and rate-limits repeated final NACKs of one message. As sender it takes the table's action for each code it
 * receives: fail the work request with an error naming the code, retry after the retry-after interval, retransmit,
 * or fail the connection.
 *
 * <p>Not judged here, because spec 0.1 leaves it open (settled by the 0.2 draft): the NACK's own cumulative PSN field
 * relative to the rejected PSN, and the retry-after value a receiver puts in a RECEIVER_NOT_READY.
 */
@ExtendWith(DutExtension.class)
@DisplayName("NACK codes and actions")
class NackCase {
    private static final byte[] DATA = Testbed.randomBytes(600, 31);
    /** Where the DUT's own WRITEs and SENDs take their data from. */
    private static final long SOURCE = Testbed.BASE + 0x9000;

    // The DUT as receiver ---------------------------------------------------------------------------------

    @Test
    @DisplayName("a SEND with no receive posted is NACKed RECEIVER_NOT_READY, not recorded, and lands once retried")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Verifies("9.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void receiverNotReady(final Testbed testbed) throws Exception {
        final long buffer = Testbed.BASE + 0x4000;
        int mark = testbed.peer().mark();
        final long rsn = testbed.connection().takeRsn(0);
        final List<PacketBuilder> sendPackets =
                TesterMessages.message(testbed.connection(), Opcode.SEND, 0, 0, DATA, DATA.length, b -> b.rsn(rsn));
        send(testbed, sendPackets);
        awaitNack(testbed, mark, NackCode.RECEIVER_NOT_READY, sendPackets);
        final long rejected = TesterMessages.psn(sendPackets.get(0));
        assertNotRecorded(testbed, 0, rejected, "RECEIVER_NOT_READY");
        assertThat(testbed.control().pollCompletions(8, Duration.ZERO))
                .as("9.1.3: a refused SEND completes nothing")
                .isEmpty();

        // The retry, once a receive is posted, is accepted on the same PSN.
        testbed.control().postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 91, testbed.key(), buffer, 4096));
        mark = testbed.peer().mark();
        testbed.peer().send(sendPackets.get(0).retransmission());
        assertThat(testbed.awaitCompletion(91).status()).isEqualTo(CompletionStatus.SUCCESS);
        assertMemory(testbed, "9.1.4: the retried SEND lands", testbed.key(), buffer, DATA);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(rejected), Testbed.WAIT);
    }

    @Test
    @DisplayName("a SEND longer than its receive is NACKed MESSAGE_TOO_LONG, places nothing and is recorded")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Verifies("9.1.4")
    @Kind(Kind.Purpose.INVALID)
    void messageTooLong(final Testbed testbed) throws Exception {
        final long buffer = Testbed.BASE + 0x4000;
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 92, testbed.key(), buffer, DATA.length - 1));
        final int mark = testbed.peer().mark();
        final long rsn = testbed.connection().takeRsn(0);
        final List<PacketBuilder> packets =
                TesterMessages.message(testbed.connection(), Opcode.SEND, 0, 1, DATA, DATA.length / 2, b -> b.rsn(rsn));
        send(testbed, packets, 1, 0);
        awaitNack(testbed, mark, NackCode.MESSAGE_TOO_LONG, packets);
        final DutCompletion completion = testbed.awaitCompletion(92);
        assertThat(completion.status())
                .as("9.1.3, 7.3.3: the only completion a refused packet may cause is the length error")
                .isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
        assertMemory(testbed, "9.1.3: a refused SEND places nothing", testbed.key(), buffer, new byte[DATA.length]);
        for (final PacketBuilder packet : packets) {
            assertRecorded(testbed, 1, TesterMessages.psn(packet), "MESSAGE_TOO_LONG");
        }
    }

    @Test
    @DisplayName("a WRITE on a stream the connection does not have is NACKed INVALID_REQUEST and recorded")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Verifies("9.1.4")
    @Kind(Kind.Purpose.INVALID)
    void invalidStream(final Testbed testbed) throws Exception {
        final int stream = testbed.connection().spec().streams(); // one past the last
        final int mark = testbed.peer().mark();
        final List<PacketBuilder> packets = TesterMessages.message(
                testbed.connection(),
                Opcode.WRITE,
                stream,
                0,
                DATA,
                DATA.length,
                b -> b.remoteAddress(Testbed.BASE).remoteKey(testbed.key()));
        send(testbed, packets);
        awaitNack(testbed, mark, NackCode.INVALID_REQUEST, packets);
        assertMemory(
                testbed, "9.1.3: a refused WRITE places nothing", testbed.key(), Testbed.BASE, new byte[DATA.length]);
        assertRecorded(testbed, 0, TesterMessages.psn(packets.get(0)), "INVALID_REQUEST");
    }

    @Test
    @DisplayName("a WRITE at or beyond the receive window is NACKed PSN_OUT_OF_WINDOW each time and not recorded")
    @Verifies("9.1.1")
    @Verifies("9.1.3")
    @Verifies("9.1.4")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void psnOutOfWindow(final Testbed testbed) throws Exception {
        final long cumulative = testbed.connection().nextPsn(1);
        final int mark = testbed.peer().mark();
        for (final long beyond :
                List.of(Psn.add(cumulative, 256), Psn.add(cumulative, 4000), Psn.add(cumulative, 256))) {
            final int each = testbed.peer().mark();
            final var packet = testbed.write(1, Testbed.BASE, testbed.key(), DATA)
                    .psn(beyond)
                    .msn(testbed.connection().takeMsn(0));
            testbed.peer().send(packet);
            awaitNack(testbed, each, NackCode.PSN_OUT_OF_WINDOW, List.of(packet));
        }
        assertMemory(
                testbed, "9.1.3: a refused WRITE places nothing", testbed.key(), Testbed.BASE, new byte[DATA.length]);
        // Neither the PSNs beyond the window nor anything before them is recorded.
        final int ackMark = testbed.peer().mark();
        testbed.connection().write(0, Testbed.BASE + 8192, testbed.key(), DATA, 1);
        final AckPacket ack = testbed.peer()
                .await(ackMark, PacketMatcher.expect().ack().path(1).covers(cumulative), Testbed.WAIT)
                .ack()
                .orElseThrow();
        assertThat(ack.cumulativePsn())
                .as("9.1.4: PSN_OUT_OF_WINDOW records nothing: the cumulative PSN only passes the WRITE that followed")
                .isEqualTo(Psn.add(cumulative, 1));
        assertThat(ack.sackBits())
                .as("9.1.4: no SACK bit for a PSN NACKed out of window")
                .isEmpty();
    }

    @Test
    @DisplayName("PSNs NACKed REMOTE_ACCESS or BOUNDS are recorded as received: the path does not stall on them")
    @Verifies("9.1.4")
    @Kind(Kind.Purpose.INVALID)
    void finalAccessCodesRecordThePsn(final Testbed testbed) throws Exception {
        for (final NackCode code : List.of(NackCode.REMOTE_ACCESS, NackCode.BOUNDS)) {
            final int mark = testbed.peer().mark();
            final long key = code == NackCode.REMOTE_ACCESS ? testbed.key() ^ 0x0F0F_0000L : testbed.key();
            final long address = code == NackCode.BOUNDS ? Testbed.BASE + Testbed.REGION - 10 : Testbed.BASE;
            final List<PacketBuilder> packets = TesterMessages.write(testbed, 1, address, key, DATA);
            send(testbed, packets);
            awaitNack(testbed, mark, code, packets);
            assertRecorded(testbed, 1, TesterMessages.psn(packets.get(0)), code.name());
        }
    }

    @Test
    @DisplayName(
            "a message refused with a final code gets at most one NACK per path per RTT; retryable codes every packet")
    @Verifies("9.1.5")
    @Kind(Kind.Purpose.INVALID)
    void nackRateLimit(final Testbed testbed) throws Exception {
        TesterMessages.requireOptional(testbed, "9.1.5");
        // Give the DUT a smoothed RTT on path 1 far longer than the burst: acknowledge one of its packets late.
        final Duration lateBy = Duration.ofMillis(100);
        final ReceivedPacket first = postWriteAndAwait(testbed, 95, DATA.length);
        final int path = first.data().orElseThrow().header().pathId();
        Thread.sleep(lateBy.toMillis());
        CaseSteps.acknowledge(testbed, first);
        testbed.awaitCompletion(95);

        final int mark = testbed.peer().mark();
        final int segment = 64;
        // 8 packets of one refused message, back to back.
        final List<PacketBuilder> burst = TesterMessages.message(
                testbed.connection(),
                Opcode.WRITE,
                0,
                path,
                Testbed.randomBytes(8 * segment, 4),
                segment,
                b -> b.remoteAddress(Testbed.BASE).remoteKey(testbed.key() ^ 0x0F0F_0000L));
        final List<byte[]> wire = burst.stream().map(PacketBuilder::build).toList();
        final long startNs = testbed.peer().link().nowNs();
        for (final byte[] packet : wire) {
            testbed.peer().send(packet);
        }
        final long burstNs = testbed.peer().link().nowNs() - startNs;
        // 4 SENDs with no receive posted and 4 packets beyond the window: each must be NACKed.
        for (int i = 0; i < 4; i++) {
            testbed.connection().sendMessage(0, DATA, 0);
        }
        for (int i = 0; i < 4; i++) {
            testbed.peer()
                    .send(testbed.write(0, Testbed.BASE, testbed.key(), DATA)
                            .psn(Psn.add(testbed.connection().nextPsn(0), 300 + i))
                            .msn(testbed.connection().takeMsn(0)));
        }
        testbed.peer().recorder().awaitQuiet(Duration.ofMillis(50), Testbed.WAIT);
        if (burstNs + testbed.profile().parameters().timers().tolerance().toNanos() >= lateBy.toNanos() / 2) {
            throw org.mrconf.cases.Inconclusive.because("the burst took " + burstNs / 1000
                    + " us, not well inside the DUT's smoothed RTT of about " + lateBy.toMillis() + " ms");
        }
        final List<ReceivedPacket> refused = testbed.peer()
                .recorder()
                .matching(
                        mark,
                        PacketMatcher.expect().nack(NackCode.REMOTE_ACCESS).path(path));
        if (refused.size() > 1
                && refused.get(refused.size() - 1).receivedNs() - refused.get(0).receivedNs() >= lateBy.toNanos() / 2) {
            // The DUT may have handled the queued burst over more than one smoothed RTT (a slow receiver): then a
            // second NACK is allowed, and the tester cannot see when the DUT handled each packet.
            throw org.mrconf.cases.Inconclusive.because("the " + refused.size() + " NACKs came over "
                    + (refused.get(refused.size() - 1).receivedNs()
                                    - refused.get(0).receivedNs())
                            / 1_000_000
                    + " ms, so the DUT may have handled the burst over more than its smoothed RTT");
        }
        assertThat(refused)
                .as("9.1.5: NACKs for the 8 packets of one refused message within one smoothed RTT")
                .hasSize(1);
        assertThat(testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().nack(NackCode.RECEIVER_NOT_READY)))
                .as("9.1.5: every packet refused with RECEIVER_NOT_READY is NACKed")
                .hasSize(4);
        assertThat(testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().nack(NackCode.PSN_OUT_OF_WINDOW)))
                .as("9.1.5: every packet refused with PSN_OUT_OF_WINDOW is NACKed")
                .hasSize(4);
    }

    // The DUT as sender -----------------------------------------------------------------------------------

    @Test
    @DisplayName("a WRITE or SEND NACKed with a final code completes with the error naming that code")
    @Verifies("9.1.2")
    @Verifies("7.5.8")
    @Kind(Kind.Purpose.INVALID)
    void finalCodesFailTheWorkRequest(final Testbed testbed) throws Exception {
        final List<NackCode> codes =
                List.of(NackCode.REMOTE_ACCESS, NackCode.BOUNDS, NackCode.MESSAGE_TOO_LONG, NackCode.INVALID_REQUEST);
        final List<CompletionStatus> statuses = List.of(
                CompletionStatus.REMOTE_ACCESS_ERROR,
                CompletionStatus.REMOTE_BOUNDS_ERROR,
                CompletionStatus.REMOTE_MESSAGE_TOO_LONG,
                CompletionStatus.REMOTE_INVALID_REQUEST);
        for (int i = 0; i < codes.size(); i++) {
            final long wrId = 200 + i;
            final ReceivedPacket packet = codes.get(i) == NackCode.MESSAGE_TOO_LONG
                    ? postSendAndAwait(testbed, wrId)
                    : postWriteAndAwait(testbed, wrId, DATA.length);
            nack(testbed, packet, codes.get(i), 0);
            assertThat(testbed.awaitCompletion(wrId).status())
                    .as("9.1.2: the work request NACKed with %s", codes.get(i))
                    .isEqualTo(statuses.get(i));
        }
    }

    @Test
    @DisplayName(
            "a packet NACKed RECEIVER_NOT_READY is retried after the retry-after interval and the work request succeeds")
    @Verifies("9.1.2")
    @Verifies("9.1.9")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void receiverNotReadyIsRetried(final Testbed testbed) throws Exception {
        final var timers = testbed.profile().parameters().timers();
        final Duration retryAfter =
                Duration.ofMillis(20).plus(timers.tolerance().multipliedBy(2));
        final ReceivedPacket packet = postSendAndAwait(testbed, 210);
        final DataPacket data = packet.data().orElseThrow();
        final int mark = testbed.peer().mark();
        final long nackNs = nack(testbed, packet, NackCode.RECEIVER_NOT_READY, retryAfter.toNanos() / 1000);

        final ReceivedPacket retry = awaitAgain(testbed, mark, data, Testbed.WAIT.plus(retryAfter));
        // 9.1.9: not before retry-after has passed since the DUT received the NACK, whatever its own timers say. The
        // tester's interval (from sending the NACK to receiving the resend) can only be longer than the DUT's.
        final long earliestNs = retryAfter.toNanos() - timers.tolerance().toNanos();
        StallAllowance.excuse(
                testbed.stalls(),
                "9.1.9: the resend of a RECEIVER_NOT_READY packet",
                StallAllowance.underNs(retry.receivedNs() - nackNs, earliestNs),
                nackNs,
                retry.receivedNs());
        assertThat(retry.receivedNs() - nackNs)
                .as(
                        "9.1.9: the resend of a RECEIVER_NOT_READY packet waits for the retry-after of %d us",
                        retryAfter.toNanos() / 1000)
                .isGreaterThanOrEqualTo(earliestNs);
        CaseSteps.acknowledge(testbed, retry);
        assertThat(testbed.awaitCompletion(210).status())
                .as("9.1.2: RECEIVER_NOT_READY is not fatal: the work request succeeds once the retry is acknowledged")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("a packet NACKed PSN_OUT_OF_WINDOW is retransmitted and the work request succeeds")
    @Verifies("9.1.2")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void outOfWindowIsRetransmitted(final Testbed testbed) throws Exception {
        final ReceivedPacket packet = postWriteAndAwait(testbed, 220, DATA.length);
        final DataPacket data = packet.data().orElseThrow();
        final int mark = testbed.peer().mark();
        nack(testbed, packet, NackCode.PSN_OUT_OF_WINDOW, 0);
        final ReceivedPacket again = awaitAgain(testbed, mark, data, Testbed.WAIT);
        CaseSteps.acknowledge(testbed, again);
        assertThat(testbed.awaitCompletion(220).status())
                .as("9.1.2: PSN_OUT_OF_WINDOW is not fatal")
                .isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("NACK UNKNOWN_CONNECTION fails the connection: every outstanding work request completes in error")
    @Verifies("9.1.2")
    @Kind(Kind.Purpose.INVALID)
    void unknownConnectionFailsTheConnection(final Testbed testbed) throws Exception {
        final ReceivedPacket packet = postWriteAndAwait(testbed, 230, DATA.length);
        testbed.control()
                .postWrite(
                        new WorkRequest(
                                Testbed.DUT_CONNECTION, 0, 231, testbed.key(), Testbed.BASE + 8192, DATA.length),
                        0x2000,
                        0x77,
                        OptionalLong.empty());
        // A DUT with one packet in flight (section 10: a tester assumes no more) sends the second WRITE only once the
        // first is acknowledged, which the NACK never does: the second is then outstanding but unsent, and the failed
        // connection must complete it in error all the same. It is awaited for at most a quarter of the connection
        // timeout, so that the DUT's own timeout (6.7.3) cannot fail the connection first.
        final java.util.Optional<ReceivedPacket> second = CaseSteps.awaitWhileOthersHeld(
                testbed,
                0,
                PacketMatcher.expect()
                        .data()
                        .connection(Testbed.TESTER_CONNECTION)
                        .msn(packet.data().orElseThrow().messageSequenceNumber() + 1));
        nack(testbed, packet, NackCode.UNKNOWN_CONNECTION, 0);
        // The ACK of the second WRITE, if it was sent, comes after the NACK: a failed connection no longer completes
        // it.
        if (second.isPresent()) {
            CaseSteps.acknowledge(testbed, second.get());
        }
        final java.util.Map<Long, DutCompletion> completions = TesterMessages.awaitCompletions(testbed, 230, 231);
        assertThat(completions.get(230L).status())
                .as("9.1.2: the work request NACKed UNKNOWN_CONNECTION")
                .isEqualTo(CompletionStatus.REMOTE_UNKNOWN_CONNECTION);
        assertThat(completions.get(231L).status())
                .as("9.1.2: every other outstanding work request of a failed connection")
                .isNotEqualTo(CompletionStatus.SUCCESS);
    }

    // helpers --------------------------------------------------------------------------------------------

    /** Posts a WRITE of {@code length} bytes from the testbed region and returns its first data packet. */
    static ReceivedPacket postWriteAndAwait(final Testbed testbed, final long wrId, final int length) throws Exception {
        testbed.control().writeRegion(testbed.key(), SOURCE, DATA);
        return DutTraffic.postWriteAndAwaitFirst(testbed, wrId, SOURCE, length, 0x1000, 0x77);
    }

    /** Posts a SEND of {@link #DATA} from the testbed region and returns its first data packet. */
    private static ReceivedPacket postSendAndAwait(final Testbed testbed, final long wrId) throws Exception {
        return postAndAwait(
                testbed,
                Opcode.SEND,
                source -> testbed.control().postSend(source),
                sourceOf(testbed, wrId, DATA.length));
    }

    /** The source of a posted work request: {@code length} bytes at {@link #SOURCE} on stream 0. */
    private static WorkRequest sourceOf(final Testbed testbed, final long wrId, final int length) {
        return new WorkRequest(Testbed.DUT_CONNECTION, 0, wrId, testbed.key(), SOURCE, length);
    }

    /** Fills the source with {@link #DATA}, posts the work request and returns the first data packet it sends. */
    private static ReceivedPacket postAndAwait(
            final Testbed testbed, final Opcode opcode, final Post post, final WorkRequest source) throws Exception {
        final int mark = testbed.peer().mark();
        testbed.control().writeRegion(testbed.key(), SOURCE, DATA);
        post.post(source);
        return testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().data().opcode(opcode).connection(Testbed.TESTER_CONNECTION),
                        Testbed.WAIT);
    }

    /** Posts one work request to the DUT. */
    @FunctionalInterface
    private interface Post {
        void post(WorkRequest source) throws DutControlException;
    }

    /** NACKs a packet the DUT sent, naming its path, PSN, stream and MSN; returns when it was sent. */
    private static long nack(
            final Testbed testbed, final ReceivedPacket packet, final NackCode code, final long retryAfterUs)
            throws Exception {
        final DataPacket data = packet.data().orElseThrow();
        final long at = testbed.peer().link().nowNs();
        testbed.peer()
                .send(PacketBuilder.nack(code)
                        // NACK UNKNOWN_CONNECTION echoes the id the DUT sent to, the only one its answerer knew
                        // (9.1.10).
                        .connection(
                                code == NackCode.UNKNOWN_CONNECTION
                                        ? Testbed.TESTER_CONNECTION
                                        : Testbed.DUT_CONNECTION)
                        .path(data.header().pathId())
                        .psn(data.header().psn())
                        .stream(data.streamId())
                        .msn(data.messageSequenceNumber())
                        .cumulativePsn(data.header().psn())
                        .retryAfter(retryAfterUs));
        return at;
    }

    /** Waits for the DUT to send {@code data}'s PSN on its path again, after {@code mark}. */
    private static ReceivedPacket awaitAgain(
            final Testbed testbed, final int mark, final DataPacket data, final Duration timeout) throws Exception {
        return testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .data()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(data.header().pathId())
                                .psn(data.header().psn()),
                        timeout);
    }

    /** After a final NACK of {@code psn}, a valid packet after it on the path: the ACK must report both. */
    private static void assertRecorded(final Testbed testbed, final int path, final long psn, final String code)
            throws Exception {
        final AckPacket ack = ackOfAWriteAfter(testbed, path);
        assertThat(PacketMatcher.covers(ack, psn))
                .as(
                        "9.1.4: PSN %d NACKed %s is recorded as received (ACK cumulative %d, SACK %s)",
                        psn, code, ack.cumulativePsn(), java.util.Arrays.toString(ack.sackBits()))
                .isTrue();
    }

    /** After a retryable NACK of {@code psn}, a valid packet after it on the path: the ACK must not report the PSN. */
    private static void assertNotRecorded(final Testbed testbed, final int path, final long psn, final String code)
            throws Exception {
        final AckPacket ack = ackOfAWriteAfter(testbed, path);
        assertThat(PacketMatcher.covers(ack, psn))
                .as(
                        "9.1.4: PSN %d NACKed %s must not be recorded (ACK cumulative %d, SACK %s)",
                        psn, code, ack.cumulativePsn(), java.util.Arrays.toString(ack.sackBits()))
                .isFalse();
    }

    /** Sends a valid WRITE of {@link #DATA} on {@code path} and returns the DUT's first ACK that covers it. */
    private static AckPacket ackOfAWriteAfter(final Testbed testbed, final int path) throws Exception {
        final int mark = testbed.peer().mark();
        final var next = testbed.connection().write(0, Testbed.BASE + 0x2_0000, testbed.key(), DATA, path);
        return testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .path(path)
                                .covers(next.get(0).psn()),
                        Testbed.WAIT)
                .ack()
                .orElseThrow();
    }
}

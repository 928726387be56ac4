package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.Opcode;

/**
 * Duplicates and stale packets at the DUT as receiver (clauses 6.5.1, 7.4.3, 7.5.5, 7.5.6): a PSN already reported in
 * the SACK bitmap while its message is still incomplete, a PSN before the cumulative PSN, a segment of a completed
 * message under a new PSN, and a repeated READ_REQUEST. Each copy carries different bytes from the original, so that
 * placing it again would show in memory; each must be acknowledged and change nothing.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Duplicates and stale packets")
class DuplicateCase {
    private static final long RECEIVE_ADDRESS = Testbed.BASE + 0x1_0000;

    @Test
    @DisplayName("a SEND segment repeated before and after its message completes is acknowledged, never placed again")
    @Verifies("6.5.1")
    @Verifies("7.5.5")
    @Verifies("7.5.6")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void repeatedSendSegmentsChangeNothing(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 11, RECEIVE_ADDRESS, 64 * 1024));
        final int segment = connection.maxPayload(Opcode.SEND);
        final byte[] data = Testbed.randomBytes(3 * segment, 41);
        final long msn = connection.claimMsn(0);
        final long rsn = connection.claimRsn(0);
        final long base = connection.nextPsn(0);
        connection.setNextPsn(0, Psn.add(base, 3));

        send(testbed, segment(connection, data, segment, msn, rsn, 2).psn(Psn.add(base, 2)), Psn.add(base, 2));
        send(testbed, segment(connection, data, segment, msn, rsn, 1).psn(Psn.add(base, 1)), Psn.add(base, 1));
        // A copy of a PSN the SACK bitmap already reports, while the message still misses its first segment.
        Map<String, Long> before = testbed.counters();
        send(
                testbed,
                segment(connection, altered(data), segment, msn, rsn, 1)
                        .psn(Psn.add(base, 1))
                        .retransmission(),
                Psn.add(base, 1));
        CaseSteps.assertBytes(
                testbed,
                testbed.key(),
                RECEIVE_ADDRESS + segment,
                slice(data, segment, 1),
                "6.5.1: a duplicate of a SACKed PSN is not placed again");
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE))
                .as("6.5.1: the duplicate counted")
                .isEqualTo(1);

        send(testbed, segment(connection, data, segment, msn, rsn, 0).psn(base), base);
        final DutCompletion completion = completions.awaitWrId(11, "7.5.1: the SEND completes");
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        CaseSteps.assertBytes(testbed, testbed.key(), RECEIVE_ADDRESS, data, "7.3.1: the SEND in its receive");

        // A copy of a PSN before the cumulative PSN.
        before = testbed.counters();
        send(
                testbed,
                segment(connection, altered(data), segment, msn, rsn, 0)
                        .psn(base)
                        .retransmission(),
                base);
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE))
                .as("6.5.1: the duplicate counted")
                .isEqualTo(1);
        // A segment of the completed message under a new PSN: stale (7.5.6).
        before = testbed.counters();
        final long fresh = connection.nextPsn(1);
        connection.setNextPsn(1, Psn.add(fresh, 1));
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 12, RECEIVE_ADDRESS + 0x1_0000, 64 * 1024));
        send(
                testbed,
                segment(connection, altered(data), segment, msn, rsn, 2).path(1).psn(fresh),
                fresh,
                1);
        assertThat(testbed.grew(before, DutCounters.RX_STALE))
                .as("7.5.6: the stale packet counted")
                .isEqualTo(1);
        CaseSteps.assertBytes(
                testbed, testbed.key(), RECEIVE_ADDRESS, data, "6.5.1/7.5.6: the SEND's bytes are the original's");
        CaseSteps.assertBytes(
                testbed,
                testbed.key(),
                RECEIVE_ADDRESS + 0x1_0000,
                CaseSteps.zeros(segment),
                "7.5.6: the stale packet did not land in the next receive");
        final List<DutCompletion> all = completions.drain(Testbed.QUIET);
        assertThat(all.stream().filter(c -> c.wrId() == 11).count())
                .as("7.5.5: exactly one completion for the SEND: %s", all)
                .isEqualTo(1);
        assertThat(all.stream().filter(c -> c.wrId() == 12).count())
                .as("7.5.5: the next receive is not consumed by a stale packet: %s", all)
                .isZero();
    }

    @Test
    @DisplayName("a WRITE_WITH_IMMEDIATE segment arriving again after completion gives no second completion")
    @Verifies("7.5.5")
    @Verifies("7.5.6")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void staleWriteWithImmediateCompletesOnce(final Testbed testbed) throws Exception {
        org.mrconf.cases.TesterMessages.requireProfile(testbed, org.mrconf.catalogue.Profile.IMMEDIATE);
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final int segment = connection.maxPayload(Opcode.WRITE_WITH_IMMEDIATE);
        final byte[] data = Testbed.randomBytes(2 * segment, 43);
        final long address = Testbed.BASE + 0x3_0000;
        final List<PeerConnection.Segment> sent =
                connection.writeWithImmediate(0, address, testbed.key(), 0xCAFE_F00DL, data, 0, 1);
        completions.await(c -> c.immediate() == 0xCAFE_F00DL, 1, "7.2.2: the immediate completion");
        for (final PeerConnection.Segment s : sent) {
            testbed.peer().await(0, PacketMatcher.expect().ack().path(s.path()).covers(s.psn()), Testbed.WAIT);
        }
        final Map<String, Long> before = testbed.counters();
        // Both segments again, under new PSNs and with other bytes.
        for (int i = 0; i < 2; i++) {
            final long psn = connection.nextPsn(i);
            connection.setNextPsn(i, Psn.add(psn, 1));
            send(
                    testbed,
                    CaseSteps.segment(connection, Opcode.WRITE_WITH_IMMEDIATE, i, 0, 0, altered(data), segment, i)
                            .psn(psn)
                            .remoteAddress(address)
                            .remoteKey(testbed.key())
                            .immediate(0xCAFE_F00DL),
                    psn,
                    i);
        }
        assertThat(testbed.grew(before, DutCounters.RX_STALE))
                .as("7.5.6: both stale packets counted")
                .isEqualTo(2);
        CaseSteps.assertBytes(testbed, testbed.key(), address, data, "7.5.6: stale packets are not placed");
        final List<DutCompletion> all = completions.drain(Testbed.QUIET);
        assertThat(all).as("7.5.5: one completion per message").hasSize(1);
    }

    @Test
    @DisplayName("a repeated READ_REQUEST is acknowledged and not executed again, before and after the gap fills")
    @Verifies("7.4.3")
    @Verifies("6.5.1")
    @Kind(Kind.Purpose.INOPPORTUNE)
    void repeatedReadRequestIsNotExecutedAgain(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final long readAddress = Testbed.BASE + 0x5_0000;
        final byte[] data = Testbed.randomBytes(3 * connection.maxPayload(Opcode.READ_RESPONSE) - 5, 44);
        testbed.control().writeRegion(testbed.key(), readAddress, data);
        connection.autoAck(true);
        final long base = connection.nextPsn(0);
        final long msn = connection.claimMsn(0);
        final PacketBuilder request = connection
                .packet(Opcode.READ_REQUEST, 0)
                .psn(Psn.add(base, 1)) // a gap before it: the copy below is a duplicate of a SACKed PSN
                .stream(0)
                .msn(msn)
                .messageLength(data.length)
                .remoteAddress(readAddress)
                .remoteKey(testbed.key())
                .sinkHandle(0x77)
                .transmitTimestamp(5)
                .ackRequest();
        final PacketMatcher responses = PacketMatcher.expect()
                .data()
                .opcode(Opcode.READ_RESPONSE)
                .connection(Testbed.TESTER_CONNECTION)
                .sinkHandle(0x77);
        int mark = testbed.peer().mark();
        testbed.peer().send(request);
        testbed.peer().await(mark, responses.firstTransmission().messageOffset(0), Testbed.WAIT);
        testbed.peer().recorder().awaitQuiet(Testbed.QUIET, Testbed.WAIT);
        testbed.control().writeRegion(testbed.key(), readAddress, altered(data)); // a second read would show

        mark = testbed.peer().mark();
        testbed.peer().send(request.retransmission());
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(0).covers(Psn.add(base, 1)), Testbed.WAIT);
        // The gap fills, and the request comes again, now before the cumulative PSN.
        testbed.peer()
                .send(testbed.write(0, Testbed.BASE, testbed.key(), new byte[] {1})
                        .psn(base));
        connection.setNextPsn(0, Psn.add(base, 2));
        testbed.peer().send(request.retransmission());
        testbed.peer()
                .await(mark, PacketMatcher.expect().ack().path(0).cumulativePsnAtLeast(Psn.add(base, 2)), Testbed.WAIT);
        testbed.peer().assertNone(mark, responses.firstTransmission(), Testbed.QUIET);
    }

    private static void send(final Testbed testbed, final PacketBuilder packet, final long psn) throws Exception {
        send(testbed, packet, psn, 0);
    }

    /** Sends and waits for an ACK of the path that covers the PSN (6.5.1 requires one for a duplicate too). */
    private static void send(final Testbed testbed, final PacketBuilder packet, final long psn, final int path)
            throws Exception {
        final int mark = testbed.peer().mark();
        testbed.peer().send(packet.ackRequest());
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(path)
                                .covers(psn),
                        Testbed.WAIT);
    }

    private static PacketBuilder segment(
            final PeerConnection connection,
            final byte[] data,
            final int segment,
            final long msn,
            final long rsn,
            final int index) {
        return CaseSteps.segment(connection, Opcode.SEND, 0, 0, msn, data, segment, index)
                .rsn(rsn);
    }

    private static byte[] altered(final byte[] data) {
        final byte[] copy = data.clone();
        for (int i = 0; i < copy.length; i++) {
            copy[i] = (byte) ~copy[i];
        }
        return copy;
    }

    private static byte[] slice(final byte[] data, final int segment, final int index) {
        return java.util.Arrays.copyOfRange(data, index * segment, Math.min(data.length, (index + 1) * segment));
    }
}

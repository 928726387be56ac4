package org.mrconf.cases.reliability;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * A message the receiver rejected at step 7 or 8 of clause 5.6.6 is finished, as a complete one is (clause
 * 7.5.6): a later packet of it is stale, so it is acknowledged, counted under {@code rx_stale}, neither
 * placed nor NACKed again, and matched to nothing else; the stream's lowest unfinished MSN moves past the message
 * (clause 7.5.9). Two forms, one per way the receiver keeps a finished message: the lowest MSN of its stream (finished
 * and delivered at once), and a message behind an earlier incomplete one (finished, waiting for its turn). The later
 * packet always comes on another path than the NACKed one, so no NACK rate limit (clause 9.1.5) can hide a second
 * NACK.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Packets of a rejected message")
class FinishedMessageCase {
    private static final int SEGMENT = 300;
    private static final byte[] DATA = Testbed.randomBytes(2 * SEGMENT, 211);
    private static final long SHORT_RECEIVE = Testbed.BASE + 0x2_0000;
    private static final long NEXT_RECEIVE = Testbed.BASE + 0x2_1000;
    private static final long TARGET = Testbed.BASE + 0x2_2000;
    /** A key that names no region of the DUT's. */
    private static final long NO_REGION = 0x7A5E;

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a later packet of a SEND rejected MESSAGE_TOO_LONG is stale: acknowledged, counted, not NACKed again"
            + " and matched to no other receive, and the next SEND of the stream completes")
    @Verifies("7.5.6")
    @Verifies("5.6.6")
    @Verifies("7.5.9")
    void aRejectedSendsLaterPacketIsStale(final Testbed testbed) throws Exception {
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 2101, testbed.key(), SHORT_RECEIVE, 64));
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 2102, testbed.key(), NEXT_RECEIVE, 4096));
        final byte[] before = testbed.control().readRegion(testbed.key(), NEXT_RECEIVE, DATA.length);
        final PeerConnection connection = testbed.connection();
        final long msn = connection.takeMsn(0);
        final long rsn = connection.takeRsn(0);

        rejectFirstPacket(
                testbed,
                CaseSteps.segment(connection, Opcode.SEND, 0, 0, msn, DATA, SEGMENT, 0)
                        .rsn(rsn),
                NackCode.MESSAGE_TOO_LONG,
                DutCounters.REJECT_MESSAGE_TOO_LONG);
        assertThat(testbed.awaitCompletion(2101).status())
                .as("7.3.3: the short receive completes with the length error")
                .isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
        judgeStale(
                testbed,
                CaseSteps.segment(connection, Opcode.SEND, 1, 0, msn, DATA, SEGMENT, 1)
                        .rsn(rsn),
                DutCounters.REJECT_MESSAGE_TOO_LONG);
        assertThat(testbed.control().pollCompletions(8, testbed.quiet()))
                .as("7.5.6: the stale packet completes no other receive")
                .isEmpty();
        assertThat(testbed.control().readRegion(testbed.key(), NEXT_RECEIVE, DATA.length))
                .as("7.5.6: the stale packet is placed nowhere, the next receive's buffer least of all")
                .isEqualTo(before);

        // 7.5.9: the rejected message is finished, so the stream's next SEND takes the next receive and completes.
        final byte[] next = Testbed.randomBytes(64, 212);
        final long nextMsn = connection.takeMsn(0);
        connection.sendNew(
                connection.packet(Opcode.SEND, 0).stream(0)
                        .msn(nextMsn)
                        .rsn(connection.takeRsn(0))
                        .messageLength(next.length)
                        .messageOffset(0)
                        .payload(next)
                        .transmitTimestamp(2103)
                        .ackRequest(),
                0);
        final DutCompletion completion = testbed.awaitCompletion(2102);
        assertThat(completion.status()).as("the next SEND").isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.msn()).as("the next SEND's MSN").isEqualTo(nextMsn);
        assertThat(testbed.control().readRegion(testbed.key(), NEXT_RECEIVE, next.length))
                .as("the next SEND lands in the next receive")
                .isEqualTo(next);
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a later packet of a WRITE rejected REMOTE_ACCESS behind an incomplete earlier message is stale:"
            + " acknowledged, counted and not NACKed again")
    @Verifies("7.5.6")
    @Verifies("5.6.6")
    void aRejectedWritesLaterPacketIsStaleBehindAnIncompleteMessage(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final long earlier = connection.takeMsn(0);
        final long rejected = connection.takeMsn(0);
        final byte[] untouched = testbed.control().readRegion(testbed.key(), TARGET + DATA.length, DATA.length);
        // The earlier WRITE's first packet only: its message stays incomplete, so the rejected one waits for its turn.
        send(testbed, write(connection, earlier, testbed.key(), TARGET, 0, 0), 0);

        rejectFirstPacket(
                testbed,
                write(connection, rejected, NO_REGION, TARGET + DATA.length, 0, 0),
                NackCode.REMOTE_ACCESS,
                DutCounters.REJECT_REMOTE_ACCESS);
        judgeStale(
                testbed,
                write(connection, rejected, NO_REGION, TARGET + DATA.length, 1, 1),
                DutCounters.REJECT_REMOTE_ACCESS);

        send(testbed, write(connection, earlier, testbed.key(), TARGET, 1, 0), 0);
        assertThat(testbed.control().readRegion(testbed.key(), TARGET, 2 * DATA.length))
                .as("the earlier WRITE is placed; the rejected one placed nothing")
                .isEqualTo(concat(DATA, untouched));
    }

    /** Sends {@code first} on path 0 and awaits its NACK {@code code}, counted under {@code counter}. */
    private static void rejectFirstPacket(
            final Testbed testbed, final PacketBuilder first, final NackCode code, final String counter)
            throws Exception {
        final Map<String, Long> counters = testbed.counters();
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().sendNew(first.ackRequest(), 0).psn();
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .nack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(0)
                                .psn(psn)
                                .where("code " + code, NackPacket.class, nack -> nack.code() == code),
                        Testbed.WAIT);
        assertThat(testbed.awaitGrowth(counters, counter, 1))
                .as("9.1.1: the first packet is rejected %s", code)
                .isEqualTo(1);
    }

    /**
     * Sends {@code later}, a later packet of the message just rejected, on path 1 and judges it stale: an ACK of path 1
     * reports it, no NACK names it, {@code rx_stale} counts it and {@code rejectCounter} does not.
     */
    private static void judgeStale(final Testbed testbed, final PacketBuilder later, final String rejectCounter)
            throws Exception {
        final Map<String, Long> counters = testbed.counters();
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().sendNew(later.ackRequest(), 1).psn();
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(1).covers(psn), Testbed.WAIT);
        testbed.peer()
                .assertNone(
                        mark,
                        PacketMatcher.expect()
                                .nack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(1)
                                .psn(psn),
                        testbed.quiet());
        assertThat(testbed.awaitGrowth(counters, DutCounters.RX_STALE, 1))
                .as("7.5.6: a later packet of a rejected (finished) message is stale, counted under rx_stale")
                .isEqualTo(1);
        assertThat(testbed.grew(counters, rejectCounter))
                .as("7.5.6: it is not rejected again")
                .isZero();
    }

    /** Packet {@code index} of a WRITE of {@link #DATA}, built as the next packet of {@code path}. */
    private static PacketBuilder write(
            final PeerConnection connection,
            final long msn,
            final long key,
            final long address,
            final int index,
            final int path) {
        return CaseSteps.segment(connection, Opcode.WRITE, path, 0, msn, DATA, SEGMENT, index)
                .remoteAddress(address)
                .remoteKey(key);
    }

    /** Sends {@code packet} on {@code path} and waits for the ACK that reports it. */
    private static void send(final Testbed testbed, final PacketBuilder packet, final int path) throws Exception {
        final int mark = testbed.peer().mark();
        final long psn = testbed.connection().sendNew(packet.ackRequest(), path).psn();
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(path).covers(psn), Testbed.WAIT);
    }

    private static byte[] concat(final byte[] a, final byte[] b) {
        final byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}

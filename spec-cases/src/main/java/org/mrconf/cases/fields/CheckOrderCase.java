package org.mrconf.cases.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Map;
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
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.RegionAccess;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * Clause 5.6.6: packets that fail two connection-state checks at once, each answered as the earlier check of the
 * order requires and counted only there. Every pair is one a peer really sends: a duplicate or far-ahead PSN carrying
 * a stream id the connection lacks, a new packet with a bad stream id and a bad key, a retransmission of a completed
 * message into a region invalidated since, a disagreeing segment with a bad key, a WRITE or READ into a region that
 * both forbids it and is too small for it, and a late READ_RESPONSE of a finished READ that agrees with nothing of it.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Order of connection-state checks")
class CheckOrderCase {
    private static final int PATH = 0;
    /** A region of its own for each test that needs one, past the testbed's. */
    private static final long OTHER = Testbed.BASE + 4L * Testbed.REGION;

    private static final int OTHER_LENGTH = 4096;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a duplicate PSN is a duplicate and a PSN past the window is out of window, whatever stream id it"
            + " names")
    @Verifies("5.6.6")
    void windowAndDuplicateComeBeforeTheStreamId(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int badStream = connection.spec().streams();
        final int acked = testbed.peer().mark();
        final var first =
                connection.sendNew(testbed.write(PATH, Testbed.BASE, testbed.key(), Testbed.randomBytes(64, 91)), PATH);
        testbed.peer().await(acked, PacketMatcher.expect().ack().path(PATH).covers(first.psn()), Testbed.WAIT);
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        testbed.peer()
                .send(testbed.write(PATH, Testbed.BASE, wrongKey(testbed), new byte[64]).psn(first.psn()).stream(
                        badStream));
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(first.psn()), Testbed.WAIT);
        testbed.peer().assertNone(mark, PacketMatcher.expect().nack(), testbed.quiet());
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE))
                .as("5.6.6: a duplicate PSN with stream id %d is counted a duplicate", badStream)
                .isEqualTo(1);
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST))
                .as("5.6.6: the stream id of a duplicate is not checked")
                .isZero();

        final long ahead = (connection.nextPsn(PATH) + 300) & 0xFFFF_FFFFL;
        final int later = testbed.peer().mark();
        testbed.peer()
                .send(testbed.write(PATH, Testbed.BASE, wrongKey(testbed), new byte[64]).psn(ahead).stream(badStream));
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, later);
        assertThat(nack.code())
                .as("5.6.6: a PSN 300 past the next, naming stream id %d, is out of window first", badStream)
                .isEqualTo(NackCode.PSN_OUT_OF_WINDOW);
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isZero();
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a new WRITE with a stream id the connection lacks and a key that names no region is NACKed"
            + " INVALID_REQUEST")
    @Verifies("5.6.6")
    void streamIdComesBeforeTheKey(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int badStream = connection.spec().streams();
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final var sent = connection.sendNew(
                testbed.write(PATH, Testbed.BASE, wrongKey(testbed), new byte[64]).stream(badStream), PATH);
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, mark);
        assertThat(nack.code())
                .as("5.6.6: stream id %d and a foreign key: the stream id is checked first", badStream)
                .isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(nack.header().psn()).isEqualTo(sent.psn());
        assertThat(testbed.grew(before, DutCounters.REJECT_REMOTE_ACCESS)).isZero();
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a retransmission of a completed WRITE into a region invalidated since is stale: acknowledged,"
            + " not NACKed")
    @Verifies("5.6.6")
    void aStaleMessageComesBeforeTheKey(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final long key = testbed.control()
                .registerRegion(OTHER, OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
        final byte[] data = Testbed.randomBytes(64, 92);
        final long msn = connection.takeMsn(0);
        final int acked = testbed.peer().mark();
        final var first = connection.sendNew(
                MessageFieldsCase.segment(testbed, msn, data.length, 0, data, data.length, key, OTHER), PATH);
        testbed.peer().await(acked, PacketMatcher.expect().ack().path(PATH).covers(first.psn()), Testbed.WAIT);
        TesterMessages.assertMemory(testbed, "5.6.6: the WRITE completed", key, OTHER, data);
        testbed.control().invalidateRegion(key);
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        // The same message again under a new PSN, as a sender resends after re-pathing.
        final var again = connection.sendNew(
                MessageFieldsCase.segment(testbed, msn, data.length, 0, data, data.length, key, OTHER)
                        .retransmission(),
                PATH);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(again.psn()), Testbed.WAIT);
        testbed.peer().assertNone(mark, PacketMatcher.expect().nack(), testbed.quiet());
        assertThat(testbed.grew(before, DutCounters.RX_STALE))
                .as("5.6.6: a packet of completed MSN %d is stale, though its region is invalid now", msn)
                .isEqualTo(1);
        assertThat(testbed.grew(before, DutCounters.REJECT_REMOTE_ACCESS)).isZero();
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a segment whose message length disagrees with its message's first and whose key names no region"
            + " is NACKed INVALID_REQUEST")
    @Verifies("5.6.6")
    void messageAgreementComesBeforeTheKey(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int payload = Math.min(1024, connection.maxPayload(Opcode.WRITE));
        final byte[] data = Testbed.randomBytes(2 * payload, 93);
        final long msn = connection.takeMsn(0);
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        connection.sendNew(
                MessageFieldsCase.segment(testbed, msn, data.length, 0, data, payload, testbed.key(), Testbed.BASE),
                PATH);
        final var disagreeing = connection.sendNew(
                MessageFieldsCase.segment(
                        testbed, msn, 3 * payload, payload, data, payload, wrongKey(testbed), Testbed.BASE),
                PATH);
        final NackPacket nack = InvalidFieldsCase.awaitNack(testbed, mark);
        assertThat(nack.code())
                .as("5.6.6: another message length and a foreign key: agreement is checked first")
                .isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(nack.header().psn()).isEqualTo(disagreeing.psn());
        assertThat(testbed.grew(before, DutCounters.REJECT_REMOTE_ACCESS)).isZero();
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName(
            "a WRITE (and a READ) past the end of a region that forbids it is NACKed REMOTE_ACCESS, not" + " BOUNDS")
    @Verifies("5.6.6")
    void accessComesBeforeBounds(final Testbed testbed) throws Exception {
        final long readOnly = testbed.control()
                .registerRegion(OTHER, OTHER_LENGTH, EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_READ));
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final byte[] data = Testbed.randomBytes(64, 94);
        testbed.connection().sendNew(testbed.write(PATH, OTHER + OTHER_LENGTH - 32, readOnly, data), PATH);
        assertThat(InvalidFieldsCase.awaitNack(testbed, mark).code())
                .as("5.6.6: a WRITE 32 bytes past the end of a region without REMOTE_WRITE")
                .isEqualTo(NackCode.REMOTE_ACCESS);
        if (testbed.profile().claims(Profile.READ)) {
            final long writeOnly = testbed.control()
                    .registerRegion(
                            OTHER + 2 * OTHER_LENGTH,
                            OTHER_LENGTH,
                            EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE));
            final int reading = testbed.peer().mark();
            testbed.connection().readRequest(0, OTHER + 3 * OTHER_LENGTH - 32, writeOnly, 64, 0x56, PATH);
            assertThat(InvalidFieldsCase.awaitNack(testbed, reading).code())
                    .as("5.6.6: a READ 32 bytes past the end of a region without REMOTE_READ")
                    .isEqualTo(NackCode.REMOTE_ACCESS);
        }
        assertThat(testbed.grew(before, DutCounters.REJECT_BOUNDS)).isZero();
    }

    /** A key the testbed's region does not have, and that no region of this test has. */
    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a READ_RESPONSE whose sink handle names a finished READ is stale, whatever MSN and length it carries")
    @Verifies("5.6.6")
    void aFinishedReadsHandleComesBeforeAgreement(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        final long wrId = 1750;
        final int length = 64;
        final ReceivedPacket request = DutTraffic.read(testbed, 0, wrId, length);
        DutTraffic.answerRead(testbed, request, Testbed.randomBytes(length, 3));
        assertThat(testbed.awaitCompletion(wrId).isSuccess())
                .as("the READ, answered in full")
                .isTrue();
        final DataPacket read = request.data().orElseThrow();
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        // A late response under the finished READ's handle that agrees with nothing of it: another MSN, a longer
        // message. Its handle names no READ in progress, so it is stale before its fields are compared.
        final PeerConnection.Segment late = testbed.connection()
                .sendNew(
                        testbed.connection().packet(Opcode.READ_RESPONSE, PATH).stream(read.streamId())
                                .msn(read.messageSequenceNumber() + 3)
                                .messageLength(2L * length)
                                .messageOffset(0)
                                .sinkHandle(read.sinkHandle())
                                .payload(Testbed.randomBytes(length, 4))
                                .transmitTimestamp(4343)
                                .ackRequest(),
                        PATH);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(late.psn()), Testbed.WAIT);
        testbed.peer().assertNone(mark, PacketMatcher.expect().nack(), testbed.quiet());
        assertThat(testbed.grew(before, DutCounters.RX_STALE))
                .as("5.6.6: a READ_RESPONSE of a finished READ is stale (Table 5-13)")
                .isEqualTo(1);
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST))
                .as("5.6.6: its MSN and length are not compared with the finished READ")
                .isZero();
        CaseSteps.assertBytes(
                testbed,
                testbed.key(),
                DutTraffic.sourceAddress(wrId),
                Testbed.randomBytes(length, 3),
                "5.6.6: a stale READ_RESPONSE places nothing");
    }

    private static long wrongKey(final Testbed testbed) {
        return testbed.key() ^ 0x5A5A_0000L;
    }
}

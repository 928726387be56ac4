package org.mrconf.cases.fields;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.Drops;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.DutTraffic;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.DutCounters;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.Psn;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;
import org.mrconf.wire.Opcode;

/**
 * Rows of Table 5-13, each with the action and the counter the table gives: a silent drop is answered by nothing
 * and counted once (then the DUT still answers a correct packet with the same PSN, so the drop changed no state);
 * a NACK names the code and is counted under its reject counter.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Invalid field values")
class InvalidFieldsCase {
    private static final int PATH = 1;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE naming a stream the connection does not have is NACKed INVALID_REQUEST and counted")
    @Verifies("5.6.5")
    @Verifies("9.1.1")
    void unknownStreamIsNackedInvalidRequest(final Testbed testbed) throws Exception {
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final byte[] data = Testbed.randomBytes(128, 71);

        final var segment =
                testbed.connection().sendNew(testbed.write(PATH, Testbed.BASE, testbed.key(), data).stream(7), PATH);

        final NackPacket nack = awaitNack(testbed, mark);
        assertThat(nack.code()).isEqualTo(NackCode.INVALID_REQUEST);
        assertThat(nack.header().psn()).isEqualTo(segment.psn());
        assertThat(nack.streamId()).isEqualTo(7);
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isEqualTo(1);
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                .as("5.6.5: one row per packet, never both a drop and a NACK")
                .isZero();
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                .containsOnly(0);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a READ_RESPONSE whose MSN or message length differ from the READ its sink handle names is NACKed"
            + " INVALID_REQUEST and places nothing; a true response then completes the READ")
    @Verifies("5.6.5")
    void readResponseDisagreeingWithItsReadIsRefused(final Testbed testbed) throws Exception {
        org.mrconf.cases.TesterMessages.requireProfile(testbed, Profile.READ);
        final int length = 64;
        final long sink = Testbed.BASE + 0x6000;
        testbed.control().writeRegion(testbed.key(), sink, new byte[length]);
        final DataPacket request = DutTraffic.postReadAndAcknowledgeItsRequest(
                testbed,
                new org.mrconf.dut.WorkRequest(Testbed.DUT_CONNECTION, 0, 93, testbed.key(), sink, length),
                DutTraffic.REMOTE_ADDRESS,
                DutTraffic.REMOTE_KEY);
        final byte[] data = Testbed.randomBytes(length, 76);
        final int path = request.header().pathId();
        final var connection = testbed.connection();
        // Each disagrees with the READ in one field only; its sink handle names the READ, which is in progress.
        final java.util.List<java.util.function.UnaryOperator<PacketBuilder>> wrong = java.util.List.of(
                b -> b.msn(Psn.add(request.messageSequenceNumber(), 1)), b -> b.messageLength(length + 1L));
        final String[] what = {"its MSN", "its message length"};
        for (int i = 0; i < wrong.size(); i++) {
            final Map<String, Long> before = testbed.counters();
            final int mark = testbed.peer().mark();
            final var segment = connection.sendNew(
                    wrong.get(i)
                            .apply(CaseSteps.readResponseTo(connection, request, data, length, 0, path)
                                    .ackRequest()),
                    path);
            final NackPacket nack = awaitNack(testbed, mark);
            assertThat(nack.code())
                    .as(
                            "Table 5-13: a READ_RESPONSE whose %s differs from its READ's is NACKed INVALID_REQUEST",
                            what[i])
                    .isEqualTo(NackCode.INVALID_REQUEST);
            assertThat(nack.header().psn()).isEqualTo(segment.psn());
            assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST)).isEqualTo(1);
            assertThat(testbed.control().readRegion(testbed.key(), sink, length))
                    .as("5.6.5: the refused READ_RESPONSE (%s) places nothing", what[i])
                    .containsOnly(0);
        }
        connection.sendNew(
                CaseSteps.readResponseTo(connection, request, data, length, 0, path)
                        .ackRequest(),
                path);
        assertThat(testbed.awaitCompletion(93).status())
                .as("the READ completes from the response that agrees with it")
                .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
        assertThat(testbed.control().readRegion(testbed.key(), sink, length)).isEqualTo(data);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a READ_REQUEST whose payload length is not 0 is dropped silently and counted as an invalid field")
    @Verifies("5.6.5")
    @Verifies("5.2.5")
    void readRequestWithPayloadLengthIsDropped(final Testbed testbed) throws Exception {
        final PacketBuilder request = testbed.connection().packet(Opcode.READ_REQUEST, PATH).stream(0)
                .msn(testbed.connection().nextMsn(0))
                .messageLength(64)
                .messageOffset(0)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .sinkHandle(0x31)
                .transmitTimestamp(777)
                .payloadLengthField(16) // the field only: extra bytes would be a length error (5.1.3) instead
                .ackRequest();
        assertDroppedAndCounted(testbed, request, DutCounters.RX_INVALID_FIELD);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a WRITE on a path the connection does not have is dropped silently and counted")
    @Verifies("5.6.5")
    @Verifies("3.1.1")
    void unknownPathIsDropped(final Testbed testbed) throws Exception {
        final PacketBuilder write = testbed.write(PATH, Testbed.BASE, testbed.key(), Testbed.randomBytes(64, 73))
                .path(9);
        assertDroppedAndCounted(testbed, write, DutCounters.RX_INVALID_PATH);
    }

    @Test
    @Kind(Kind.Purpose.INOPPORTUNE)
    @DisplayName("a WRITE whose PSN is exactly cumulative PSN + 2^31 is a duplicate: acknowledged, not placed")
    @Verifies("5.6.5")
    @Verifies("6.5.1")
    void psnHalfTheSpaceAwayIsADuplicate(final Testbed testbed) throws Exception {
        final long cumulative = testbed.connection().nextPsn(PATH);
        final long far = (cumulative + (1L << 31)) & 0xFFFF_FFFFL;
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();
        final byte[] data = Testbed.randomBytes(64, 74);

        testbed.peer()
                .send(testbed.write(PATH, Testbed.BASE, testbed.key(), data).psn(far));

        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH)
                                .cumulativePsn(cumulative),
                        Testbed.WAIT);
        assertThat(testbed.grew(before, DutCounters.RX_DUPLICATE)).isEqualTo(1);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, data.length))
                .as("6.5.1: a duplicate is not placed")
                .containsOnly(0);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("an ACK of PSNs the DUT never sent is dropped whole, counted, and changes nothing")
    @Verifies("5.6.5")
    void ackOfUnsentPsnsIsDropped(final Testbed testbed) throws Exception {
        final Map<String, Long> before = testbed.counters();
        final long initial = testbed.profile().parameters().initialSendPsn();
        final int quiet = testbed.peer().mark();

        testbed.peer()
                .send(PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(0)
                        .cumulativePsn((initial + 100) & 0xFFFF_FFFFL)
                        .echoedTimestamp(1));
        // An ACK is never answered (9.1.1): no NACK, and no data the DUT had no work request for.
        testbed.peer()
                .assertNone(
                        quiet,
                        PacketMatcher.expect().nack().or(PacketMatcher.expect().data()),
                        Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD)).isEqualTo(1);

        // The path's PSN space did not move: the DUT's next WRITE still starts at the initial PSN, and its
        // completion still waits for a real ACK.
        final ReceivedPacket sent = postWriteAndAwait(testbed, 51);
        assertThat(sent.data().orElseThrow().header().psn()).isEqualTo(initial);
    }

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName(
            "an ACK or NACK naming a PSN exactly 2^31 from the path's next PSN names one never sent: dropped, counted")
    @Verifies("5.6.5")
    void halfWayPsnsWereNeverSent(final Testbed testbed) throws Exception {
        // One PSN outstanding, so that the half-way value also lies "before" the oldest one in serial arithmetic:
        // only the rule for a PSN neither before nor after the next PSN tells it from a late ACK.
        final ReceivedPacket sent = postWriteAndAwait(testbed, 52);
        final DataPacket data = sent.data().orElseThrow();
        final int path = data.header().pathId();
        final long halfWay = Psn.add(data.header().psn(), 1 + (1L << 31));
        final Map<String, Long> before = testbed.counters();
        final int quiet = testbed.peer().mark();

        testbed.peer()
                .send(PacketBuilder.ack()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(path)
                        .cumulativePsn(halfWay)
                        .echoedTimestamp(data.transmitTimestamp()));
        testbed.peer()
                .send(
                        PacketBuilder.nack(NackCode.REMOTE_ACCESS)
                                .connection(Testbed.DUT_CONNECTION)
                                .path(path)
                                .psn(halfWay)
                                .stream(data.streamId())
                                .msn(data.messageSequenceNumber())
                                .cumulativePsn(data.header().psn())
                                .retryAfter(0));
        testbed.peer().assertNone(quiet, PacketMatcher.expect().nack(), Testbed.QUIET);
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                .as(
                        "5.6.5: the ACK and the NACK of PSN %d, 2^31 from the path's next PSN, each counted under %s",
                        halfWay, DutCounters.RX_INVALID_FIELD)
                .isEqualTo(2);

        // Neither changed anything: the WRITE completes with SUCCESS once its PSN is acknowledged.
        CaseSteps.acknowledge(testbed, sent);
        final org.mrconf.dut.CompletionStatus status =
                testbed.awaitCompletion(52).status();
        if (status == org.mrconf.dut.CompletionStatus.TRANSPORT_TIMEOUT) {
            throw org.mrconf.cases.Inconclusive.because("the DUT's connection timeout ran out before the tester"
                    + " acknowledged the WRITE, so whether the dropped ACK and NACK changed nothing cannot be told");
        }
        assertThat(status)
                .as("5.6.5: the WRITE after an ACK and a NACK that were dropped")
                .isEqualTo(org.mrconf.dut.CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("a PROBE without ACK_REQUEST is still answered with an ACK that echoes its timestamp")
    @Verifies("5.6.5")
    @Verifies("5.5.1")
    void probeWithoutAckRequestIsAnswered(final Testbed testbed) throws Exception {
        if (!testbed.profile().claims(Profile.MULTIPATH)) {
            throw org.mrconf.cases.NotApplicable.because("the device does not claim the multipath profile");
        }
        final int mark = testbed.peer().mark();

        testbed.peer()
                .send(PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(PATH)
                        .psn(12345)
                        .flags(0)
                        .transmitTimestamp(0x0BAD_CAFEL));

        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(PATH)
                                .echoedTimestamp(0x0BAD_CAFEL),
                        Testbed.WAIT);
    }

    /**
     * Sends {@code packet} (without consuming its PSN), expects no answer and one count of {@code counter}, then
     * sends a correct WRITE with the same PSN and expects it placed and acknowledged: the drop changed nothing.
     */
    private static void assertDroppedAndCounted(final Testbed testbed, final PacketBuilder packet, final String counter)
            throws Exception {
        final Map<String, Long> before = testbed.counters();
        final int mark = testbed.peer().mark();

        testbed.peer().send(packet);

        testbed.peer().assertNone(mark, PacketMatcher.expect().connection(Testbed.TESTER_CONNECTION), Testbed.QUIET);
        assertThat(testbed.grew(before, counter)).as("counted as %s", counter).isEqualTo(1);
        assertThat(testbed.grew(before, DutCounters.REJECT_INVALID_REQUEST))
                .as("5.6.5: a dropped packet is not also NACKed")
                .isZero();
        final byte[] data = Testbed.randomBytes(64, 75);
        Drops.assertPlaced(
                testbed,
                mark,
                PATH,
                testbed.write(PATH, Testbed.BASE + 8192, testbed.key(), data),
                Testbed.BASE + 8192,
                data,
                "a correct packet afterwards is placed");
    }

    /** The first NACK the DUT sends on the testbed's connection since {@code mark}. */
    static NackPacket awaitNack(final Testbed testbed, final int mark) {
        return testbed.peer()
                .await(mark, PacketMatcher.expect().nack().connection(Testbed.TESTER_CONNECTION), Testbed.WAIT)
                .nack()
                .orElseThrow();
    }

    /** Makes the DUT post a 64-byte WRITE {@code wrId} and returns its first packet, which the tester leaves unanswered. */
    private static ReceivedPacket postWriteAndAwait(final Testbed testbed, final long wrId) throws Exception {
        return DutTraffic.postWriteAndAwaitFirst(testbed, wrId, Testbed.BASE, 64, 0x00AA_0000L, 0x42);
    }
}

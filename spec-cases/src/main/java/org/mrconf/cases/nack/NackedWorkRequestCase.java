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

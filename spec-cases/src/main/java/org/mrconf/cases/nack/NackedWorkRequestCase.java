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
        testbed.peer()
                .send(PacketBuilder.nack(code).connection(Testbed.DUT_CONNECTION).path(path).psn(psn).stream(
                                sent.streamId())
                        .msn(sent.messageSequenceNumber())
                        .cumulativePsn(psn)
                        .retryAfter(0));
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

package org.mrconf.cases.ordering;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * A message that raises no receive completion still holds its MSN place (clause 7.5.9): a SEND that follows an
 * incomplete WRITE on its stream is placed and acknowledged at once, but its receive completes only once the WRITE
 * is complete. And receive buffers need LOCAL_WRITE (clause 11.1.6).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Completion order and local access")
class CompletionOrderCase {
    private static final long RECEIVE_ADDRESS = Testbed.BASE + 0x4_0000;

    @Test
    @DisplayName("a SEND's receive completion waits for an earlier incomplete WRITE of its stream")
    @Verifies("7.5.9")
    @Verifies("7.5.2")
    void sendWaitsForEarlierWrite(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        testbed.control()
                .postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 0, 71, testbed.key(), RECEIVE_ADDRESS, 4096));
        final int segment = Math.min(512, connection.maxPayload(Opcode.WRITE));
        final byte[] write = Testbed.randomBytes(2 * segment, 91);
        final byte[] send = Testbed.randomBytes(256, 92);
        final int mark = testbed.peer().mark();

        connection.sendNew(writePart(connection, testbed, write, segment, 0), 0); // MSN 0, first half only
        final var sendSegment = connection.sendNew(
                connection.packet(Opcode.SEND, 1).stream(0)
                        .msn(1)
                        .rsn(0)
                        .messageLength(send.length)
                        .messageOffset(0)
                        .transmitTimestamp(9)
                        .payload(send)
                        .ackRequest(),
                1);
        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(Testbed.TESTER_CONNECTION)
                                .path(1)
                                .covers(sendSegment.psn()),
                        Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), RECEIVE_ADDRESS, send.length))
                .as("7.1.1: the SEND is placed on arrival")
                .isEqualTo(send);
        assertThat(testbed.control().pollCompletions(16, Testbed.QUIET))
                .as("7.5.9: no receive completion while MSN 0, a WRITE, is incomplete")
                .isEmpty();

        connection.sendNew(writePart(connection, testbed, write, segment, 1), 0);

        final DutCompletion completion = testbed.awaitCompletion(71);
        assertThat(completion.type()).isEqualTo(CompletionType.RECEIVE);
        assertThat(completion.msn()).isEqualTo(1);
        assertThat(completion.isSuccess()).isTrue();
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE, write.length))
                .isEqualTo(write);
    }

    @Test
    @DisplayName("a receive or READ sink in a region without LOCAL_WRITE is refused, and nothing is posted")
    @Verifies("11.1.6")
    void receiveNeedsLocalWrite(final Testbed testbed) throws Exception {
        final long noLocalWrite = testbed.control()
                .registerRegion(Testbed.BASE + 2L * Testbed.REGION, 4096, EnumSet.of(RegionAccess.REMOTE_WRITE));
        assertRefused(() -> testbed.control()
                .postReceive(new WorkRequest(
                        Testbed.DUT_CONNECTION, 0, 81, noLocalWrite, Testbed.BASE + 2L * Testbed.REGION, 1024)));
        assertRefused(() -> testbed.control()
                .postRead(
                        new WorkRequest(
                                Testbed.DUT_CONNECTION, 0, 82, noLocalWrite, Testbed.BASE + 2L * Testbed.REGION, 64),
                        0x00AB_0000L,
                        0x33));
        final int mark = testbed.peer().mark();

        // Nothing was posted: a SEND finds no receive, and the DUT sends no READ_REQUEST.
        testbed.connection().sendMessage(0, Testbed.randomBytes(64, 93), 1);

        testbed.peer()
                .await(
                        mark,
                        PacketMatcher.expect().nack(NackCode.RECEIVER_NOT_READY).connection(Testbed.TESTER_CONNECTION),
                        Testbed.WAIT);
        assertThat(testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().opcode(Opcode.READ_REQUEST)))
                .isEmpty();
        assertThat(testbed.control().pollCompletions(16, Duration.ZERO)).isEmpty();
        assertThat(testbed.control().readRegion(noLocalWrite, Testbed.BASE + 2L * Testbed.REGION, 1024))
                .containsOnly(0);
    }

    private static org.mrconf.peer.PacketBuilder writePart(
            final PeerConnection connection,
            final Testbed testbed,
            final byte[] write,
            final int segment,
            final int i) {
        return connection.packet(Opcode.WRITE, 0).stream(0)
                .msn(0)
                .messageLength(write.length)
                .messageOffset((long) i * segment)
                .remoteAddress(Testbed.BASE)
                .remoteKey(testbed.key())
                .transmitTimestamp(8 + i)
                .payload(java.util.Arrays.copyOfRange(write, i * segment, (i + 1) * segment));
    }

    @FunctionalInterface
    private interface ControlCall {
        void run() throws DutControlException;
    }

    private static void assertRefused(final ControlCall call) {
        try {
            call.run();
        } catch (final DutControlException e) {
            assertThat(e.code())
                    .as("11.1.6: refused by the device, not lost on the way: %s", e.getMessage())
                    .isNotIn(DutErrorCode.TRANSPORT, DutErrorCode.MALFORMED_RESPONSE);
            return;
        }
        throw new AssertionError("11.1.6: the device accepted a local buffer in a region without LOCAL_WRITE");
    }
}

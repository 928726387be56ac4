package org.mrconf.cases.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.CaseSteps;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.Psn;
import org.mrconf.wire.Opcode;

/**
 * WRITE_WITH_IMMEDIATE at the DUT as receiver (clause 7.2.2): placed like a WRITE, it raises exactly one receive-side
 * completion on its stream carrying all 32 bits of the immediate and the message length, whichever packet arrives
 * last, and consumes no posted receive. A zero-length one completes too.
 */
@ExtendWith(DutExtension.class)
@DisplayName("WRITE_WITH_IMMEDIATE")
class ImmediateCase {
    private static final long IMMEDIATE = 0xFEDC_BA98L;

    @Test
    @DisplayName("one receive completion with the full 32-bit immediate and the length, and no posted receive used")
    @Verifies("7.2.2")
    @Verifies("7.2.1")
    void immediateCompletionCarriesTheImmediate(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final CaseSteps.CompletionLog completions = new CaseSteps.CompletionLog(testbed.control());
        final long receive = Testbed.BASE + 0x9_0000;
        testbed.control().postReceive(CaseSteps.request(testbed, 0, 600, receive, 4096));
        final int segment = connection.maxPayload(Opcode.WRITE_WITH_IMMEDIATE);
        final byte[] data = Testbed.randomBytes(3 * segment - 1, 90);
        final long address = Testbed.BASE + 0x2_0000 + 5;
        final long msn = connection.claimMsn(0);
        final long[] psns = {connection.nextPsn(0), connection.nextPsn(1)};
        // Segments 2 and 0 on path 1 and 0, then segment 1 last, on path 0.
        final int[][] plan = {{2, 1}, {0, 0}, {1, 0}};
        for (final int[] step : plan) {
            final int index = step[0];
            final int path = step[1];
            connection.sendNew(
                    CaseSteps.segment(connection, Opcode.WRITE_WITH_IMMEDIATE, path, 0, msn, data, segment, index)
                            .psn(connection.nextPsn(path))
                            .remoteAddress(address)
                            .remoteKey(testbed.key())
                            .immediate(IMMEDIATE)
                            .ackRequest(),
                    path);
        }
        CaseSteps.awaitBytes(testbed, testbed.key(), address, data, "7.2.1: the WRITE_WITH_IMMEDIATE placed");
        final DutCompletion completion = completions
                .await(c -> c.type() == CompletionType.RECEIVE_IMMEDIATE, 1, "7.2.2")
                .get(0);
        assertThat(completion.immediate())
                .as("7.2.2: all 32 bits of the immediate")
                .isEqualTo(IMMEDIATE);
        assertThat(completion.length()).as("7.2.2: the message length").isEqualTo(data.length);
        assertThat(completion.stream()).as("7.2.2: on the message's stream").isZero();
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(Psn.distance(psns[0], connection.nextPsn(0))).isEqualTo(2);

        // A zero-length WRITE_WITH_IMMEDIATE is one packet and one completion.
        final long zeroMsn = connection.claimMsn(0);
        connection.sendNew(
                connection.packet(Opcode.WRITE_WITH_IMMEDIATE, 1).stream(0)
                        .msn(zeroMsn)
                        .messageLength(0)
                        .messageOffset(0)
                        .remoteAddress(address)
                        .remoteKey(testbed.key())
                        .immediate(0x8000_0001L)
                        .transmitTimestamp(9)
                        .ackRequest(),
                1);
        final DutCompletion zero = completions
                .await(c -> c.type() == CompletionType.RECEIVE_IMMEDIATE, 2, "7.2.2: zero length")
                .get(1);
        assertThat(zero.immediate())
                .as("7.2.2: the zero-length message's immediate")
                .isEqualTo(0x8000_0001L);
        assertThat(zero.length()).isZero();

        // The posted receive is still the stream's first: the next SEND (RSN 0) consumes it.
        final byte[] sent = Testbed.randomBytes(100, 91);
        connection.sendMessage(0, sent, 0);
        final DutCompletion received = completions.awaitWrId(600, "7.2.2: the receive was not consumed");
        assertThat(received.type()).isEqualTo(CompletionType.RECEIVE);
        assertThat(received.length()).isEqualTo(sent.length);
        CaseSteps.assertBytes(testbed, testbed.key(), receive, sent, "7.3.1: the SEND in the first receive");
        final List<DutCompletion> all = completions.drain(Testbed.QUIET);
        assertThat(all).as("7.2.2: one completion per message: %s", all).hasSize(3);
    }
}

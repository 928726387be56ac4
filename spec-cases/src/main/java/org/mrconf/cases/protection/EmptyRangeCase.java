package org.mrconf.cases.protection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Kind;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.TesterMessages;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.Profile;
import org.mrconf.peer.PacketBuilder;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * Zero-length messages against a region's bounds (clause 11.1.3: an empty range lies within the region when its
 * address is in [base, base + length]) and a zero-length READ, answered as every zero-length message is sent: one
 * packet with payload length 0 (clauses 5.2.2, 7.4.1).
 */
@ExtendWith(DutExtension.class)
@DisplayName("Empty ranges")
class EmptyRangeCase {
    private static final int PATH = 0;

    @Test
    @Kind(Kind.Purpose.INVALID)
    @DisplayName("a zero-length WRITE is accepted at the region's first address and at its end, and refused with BOUNDS"
            + " one byte before or after")
    @Verifies("11.1.3")
    void zeroLengthWriteIsBoundsChecked(final Testbed testbed) throws Exception {
        final long end = Testbed.BASE + Testbed.REGION;
        assertAccepted(testbed, Testbed.BASE, "at the region's base");
        assertAccepted(testbed, end, "at the region's end (base + length)");
        assertRefused(testbed, Testbed.BASE - 1, "one byte before the region");
        assertRefused(testbed, end + 1, "one byte past the region's end");
    }

    @Test
    @Kind(Kind.Purpose.VALID)
    @DisplayName("a zero-length READ is answered by one READ_RESPONSE with payload length 0")
    @Verifies("7.4.1")
    @Verifies("5.2.2")
    void zeroLengthReadIsAnsweredByOneEmptyResponse(final Testbed testbed) throws Exception {
        TesterMessages.requireProfile(testbed, Profile.READ);
        testbed.connection().autoAck(true);
        final int mark = testbed.peer().mark();
        final long sink = 0x5E00;
        testbed.connection().readRequest(0, Testbed.BASE, testbed.key(), 0, sink, PATH);
        final PacketMatcher responses =
                PacketMatcher.expect().data().opcode(Opcode.READ_RESPONSE).sinkHandle(sink);
        testbed.peer().await(mark, responses, Testbed.WAIT);
        testbed.peer().recorder().awaitQuiet(testbed.quiet(), Testbed.WAIT);
        for (final ReceivedPacket response : testbed.peer().recorder().matching(mark, responses)) {
            final DataPacket data = response.data().orElseThrow();
            assertThat(data.payloadLength())
                    .as("7.4.1: the answer to a zero-length READ carries no bytes")
                    .isZero();
            assertThat(data.messageLength())
                    .as("7.4.1: its message length is 0")
                    .isZero();
            assertThat(data.messageOffset())
                    .as("5.2.2: one packet at message offset 0")
                    .isZero();
        }
        testbed.connection().autoAck(false);
    }

    private static void assertAccepted(final Testbed testbed, final long address, final String where) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        final var sent = connection.sendNew(testbed.write(PATH, address, testbed.key(), new byte[0]), PATH);
        testbed.peer().await(mark, PacketMatcher.expect().ack().path(PATH).covers(sent.psn()), Testbed.WAIT);
        assertThat(testbed.peer()
                        .recorder()
                        .matching(mark, PacketMatcher.expect().nack()))
                .as("11.1.3: a zero-length WRITE %s is within the region: no NACK", where)
                .isEmpty();
    }

    private static void assertRefused(final Testbed testbed, final long address, final String where) throws Exception {
        final int mark = testbed.peer().mark();
        final PacketBuilder write = testbed.write(PATH, address, testbed.key(), new byte[0]);
        testbed.connection().sendNew(write, PATH);
        final NackCode code = TesterMessages.awaitNack(testbed, mark, NackCode.BOUNDS, List.of(write))
                .code();
        assertThat(code).as("11.1.3: a zero-length WRITE %s", where).isEqualTo(NackCode.BOUNDS);
    }
}

package org.mrconf.cases.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
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
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.NackPacket;

/**
 * Sections 5.3 to 5.5: the ACK's cumulative PSN and SACK bitmap (bit order, base), ACKs with bit 0 set rejected by
 * the DUT as a sender, the NACK naming the packet it rejects, and the PROBE answered with an ACK of its path that
 * echoes its timestamp without consuming a PSN.
 */
@ExtendWith(DutExtension.class)
@DisplayName("ACK, NACK and PROBE")
class AckNackProbeCase {
    @Test
    @DisplayName("the DUT's ACK carries the lowest PSN not yet received and a SACK bitmap with bit i for cumulative"
            + " PSN + i, least significant bit first, bit 0 clear; after the gap fills, cumulative PSN moves past all")
    @Verifies("5.3.1")
    @Verifies("5.3.2")
    void ackReportsCumulativePsnAndSack(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        // Path 1: PSNs 0, 2, 3, 5, 12 arrive; 1, 4 and 6 to 11 are missing.
        final long[] arrivals = {0, 2, 3, 5, 12};
        for (final long psn : arrivals) {
            connection.setNextPsn(1, psn);
            connection.sendNew(testbed.write(1, Testbed.BASE + 64 * psn, testbed.key(), new byte[64]), 1);
        }
        final ReceivedPacket received =
                testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(1).covers(12), Testbed.WAIT);
        final AckPacket ack = received.ack().orElseThrow();
        assertThat(ack.cumulativePsn())
                .as("5.3.1: the lowest PSN of path 1 not yet received")
                .isEqualTo(1);
        assertThat(ack.sackBits()).as("5.3.1: SACK bits for PSNs 2, 3, 5, 12").containsExactly(1, 2, 4, 11);
        final byte[] raw = received.captured().bytes();
        assertThat(raw[28] & 0xFF)
                .as("5.3.1: byte 28 holds bits 0 to 7, least significant first")
                .isEqualTo(0b0001_0110);
        assertThat(raw[29] & 0xFF).as("5.3.1: byte 29 holds bits 8 to 15").isEqualTo(0b0000_1000);
        for (final long psn : new long[] {1, 4, 6, 7, 8, 9, 10, 11}) {
            connection.setNextPsn(1, psn);
            connection.sendNew(testbed.write(1, Testbed.BASE + 64 * psn, testbed.key(), new byte[64]), 1);
        }
        testbed.peer()
                .await(
                        mark,
                        org.mrconf.cases.DutTraffic.ackOf(1).cumulativePsn(13).sackBits(),
                        Testbed.WAIT);
        for (final ReceivedPacket packet : testbed.peer().recorder().since(mark)) {
            packet.ack()
                    .ifPresent(a ->
                            assertThat(a.sackBit(0)).as("5.3.2: bit 0 of %s", a).isFalse());
        }
    }

    @Test
    @DisplayName("the DUT as a sender drops and counts an ACK whose SACK bit 0 is set: its WRITE stays incomplete"
            + " until a correct ACK")
    @Verifies("5.3.2")
    @Kind(Kind.Purpose.INVALID)
    void ackWithBitZeroIsMalformed(final Testbed testbed) throws Exception {
        testbed.control().writeRegion(testbed.key(), Testbed.BASE, new byte[64]);
        final int mark = testbed.peer().mark();
        testbed.control()
                .postWrite(
                        new WorkRequest(Testbed.DUT_CONNECTION, 0, 71, testbed.key(), Testbed.BASE, 64),
                        0x00C0_0000L,
                        0x5151);
        final DataPacket write = testbed.peer()
                .await(mark, PacketMatcher.expect().data(), Testbed.WAIT)
                .data()
                .orElseThrow();
        final int path = write.header().pathId();
        final long psn = write.header().psn();
        final Map<String, Long> before = testbed.counters();

        testbed.peer().send(ack(path, psn, write.transmitTimestamp()).sackBits(0));

        assertThat(testbed.control().pollCompletions(4, Testbed.QUIET))
                .as("5.3.2: an ACK with bit 0 set acknowledges nothing")
                .isEmpty();
        assertThat(testbed.grew(before, DutCounters.RX_INVALID_FIELD))
                .as("5.3.2: counted")
                .isEqualTo(1);
        testbed.peer().send(ack(path, psn + 1, write.transmitTimestamp()));
        final DutCompletion completion = testbed.awaitCompletion(71);
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
    }

    @Test
    @DisplayName("a NACK names the rejected packet: its path, PSN, stream and MSN, with a known code")
    @Verifies("5.4.1")
    @Kind(Kind.Purpose.INVALID)
    void nackNamesTheRejectedPacket(final Testbed testbed) throws Exception {
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        connection.sendNew(testbed.write(1, Testbed.BASE, testbed.key(), new byte[64]), 1);
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(1).covers(0), Testbed.WAIT);
        final long msn = connection.takeMsn(0);
        connection.sendNew(
                connection.packet(org.mrconf.wire.Opcode.WRITE, 1).stream(0)
                        .msn(msn)
                        .messageLength(64)
                        .remoteAddress(Testbed.BASE)
                        .remoteKey(testbed.key() ^ 0x1234_5678L)
                        .transmitTimestamp(5)
                        .payload(new byte[64])
                        .ackRequest(),
                1);
        final NackPacket nack = testbed.peer()
                .await(mark, PacketMatcher.expect().nack().connection(Testbed.TESTER_CONNECTION), Testbed.WAIT)
                .nack()
                .orElseThrow();
        assertThat(nack.header().pathId())
                .as("5.4.1: path of the rejected packet")
                .isEqualTo(1);
        assertThat(nack.header().psn()).as("5.4.1: PSN of the rejected packet").isEqualTo(1);
        assertThat(nack.streamId()).as("5.4.1: stream of the rejected packet").isZero();
        assertThat(nack.messageSequenceNumber())
                .as("5.4.1: MSN of the rejected packet")
                .isEqualTo(msn);
        assertThat(nack.code()).as("5.4.1: code").isEqualTo(NackCode.REMOTE_ACCESS);
        assertThat(nack.cumulativePsn())
                .as("5.4.1: the path's cumulative PSN: PSN 0 was received")
                .isBetween(1L, 2L);
    }

    @Test
    @DisplayName("a PROBE is answered with an ACK of its path that echoes the PROBE's timestamp and shows that the"
            + " PROBE used no PSN")
    @Verifies("5.5.1")
    void probeIsAnsweredWithoutUsingAPsn(final Testbed testbed) throws Exception {
        // Clause 5.5.1 binds every receiver, whatever it claims.
        final PeerConnection connection = testbed.connection();
        final int mark = testbed.peer().mark();
        connection.sendNew(testbed.write(1, Testbed.BASE, testbed.key(), new byte[64]), 1);
        testbed.peer().await(mark, org.mrconf.cases.DutTraffic.ackOf(1).covers(0), Testbed.WAIT);
        final int probe = testbed.peer().mark();
        testbed.peer()
                .send(PacketBuilder.probe()
                        .connection(Testbed.DUT_CONNECTION)
                        .path(1)
                        .psn(1)
                        .transmitTimestamp(0x0123_4567L)
                        .ackRequest());
        final AckPacket ack = testbed.peer()
                .await(probe, org.mrconf.cases.DutTraffic.ackOf(1).echoedTimestamp(0x0123_4567L), Testbed.WAIT)
                .ack()
                .orElseThrow();
        assertThat(ack.cumulativePsn())
                .as("5.5.1: the PROBE did not consume PSN 1")
                .isEqualTo(1);
        final int after = testbed.peer().mark();
        connection.sendNew(testbed.write(1, Testbed.BASE + 64, testbed.key(), new byte[] {1, 2, 3}), 1);
        testbed.peer().await(after, org.mrconf.cases.DutTraffic.ackOf(1).cumulativePsn(2), Testbed.WAIT);
        assertThat(testbed.control().readRegion(testbed.key(), Testbed.BASE + 64, 3))
                .as("5.5.1: PSN 1 is still the next new packet")
                .containsExactly(1, 2, 3);
    }

    private static PacketBuilder ack(final int path, final long cumulativePsn, final long echoed) {
        return PacketBuilder.ack()
                .connection(Testbed.DUT_CONNECTION)
                .path(path)
                .cumulativePsn(cumulativePsn)
                .echoedTimestamp(echoed);
    }
}

package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.Datagram;
import org.mrconf.wire.AckPacket;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.Packet;
import org.mrconf.wire.PacketFlags;

class PeerConnectionTest {
    private static final long DUT_ID = 11;
    private static final long TESTER_ID = 22;
    private static final int MTU = 1000;
    /** 1000 - IPv4 20 - UDP 8 - WRITE header 48 - trailer 4 (clause 4.1.9). */
    private static final int WRITE_SEGMENT = 920;

    private static final Duration WAIT = Duration.ofSeconds(2);

    private final Links links = new Links();
    private final TesterPeer peer = TesterPeer.start(links.link);
    private final ConnectionSpec spec = ConnectionSpec.of(DUT_ID, TESTER_ID, Links.TESTER.getAddress(), 4800, 2, 4)
            .withInitialPsns(100, 0xFFFF_FFFFL);
    private final PeerConnection connection = peer.connection(spec, MTU);

    @AfterEach
    void tearDown() {
        peer.close();
        links.link.close();
    }

    @Test
    void shouldCutAWriteAtTheMtuAndSprayItOverThePaths() throws Exception {
        byte[] data = new byte[2000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }

        List<PeerConnection.Segment> segments = connection.write(1, 0x1000, 0x77, data, 0, 1);
        connection.write(1, 0x1000, 0x77, new byte[0], 1);

        List<DataPacket> sent = links.toDut.stream()
                .map(d -> (DataPacket) Packet.fromBytes(d.payload()))
                .toList();
        assertThat(connection.maxPayload(Opcode.WRITE)).isEqualTo(WRITE_SEGMENT);
        assertThat(segments).extracting(PeerConnection.Segment::path).containsExactly(0, 1, 0);
        assertThat(sent).extracting(p -> p.header().psn()).containsExactly(0xFFFF_FFFFL, 0xFFFF_FFFFL, 0L, 0L);
        assertThat(sent).extracting(DataPacket::messageOffset).containsExactly(0L, 920L, 1840L, 0L);
        assertThat(sent).extracting(DataPacket::payloadLength).containsExactly(920, 920, 160, 0);
        assertThat(sent).extracting(DataPacket::messageSequenceNumber).containsExactly(0L, 0L, 0L, 1L);
        assertThat(sent).allSatisfy(p -> {
            assertThat(p.header().destinationConnectionId()).isEqualTo(DUT_ID);
            assertThat(p.remoteAddress()).isEqualTo(0x1000);
            assertThat(p.streamId()).isEqualTo(1);
        });
        assertThat(sent)
                .extracting(p -> PacketFlags.isSet(p.header().flags(), PacketFlags.ACK_REQUEST))
                .containsExactly(false, false, true, true);
        assertThat(sent.get(2).payload()[0]).isEqualTo((byte) 1840);
        assertThat(links.toDut).extracting(Datagram::length).allMatch(n -> n + 28 <= MTU);
        assertThat(connection.nextPsn(0)).isEqualTo(1);
        assertThat(connection.nextPsn(1)).isEqualTo(1);
    }

    @Test
    void shouldNumberSendsAndResendWithTheRetransmissionFlag() throws Exception {
        connection.sendMessage(0, new byte[] {1}, 0);
        PeerConnection.Segment second =
                connection.sendMessage(0, new byte[] {2}, 0).get(0);
        links.clock.addAndGet(5_000);

        connection.resend(second);

        DataPacket original = (DataPacket) Packet.fromBytes(links.toDut.get(1).payload());
        DataPacket again = (DataPacket) Packet.fromBytes(links.toDut.get(2).payload());
        assertThat(original.receiveSequenceNumber()).isEqualTo(1);
        assertThat(original.messageSequenceNumber()).isEqualTo(1);
        assertThat(PacketFlags.isSet(again.header().flags(), PacketFlags.RETRANSMISSION))
                .isTrue();
        assertThat(again.header().psn()).isEqualTo(original.header().psn());
        assertThat(again.payload()).isEqualTo(original.payload());
        assertThat(again.transmitTimestamp()).isEqualTo(original.transmitTimestamp() + 5_000);
        assertThat(connection.sent(0, original.header().psn())).contains(second);
    }

    @Test
    void shouldAcknowledgeWhatTheDutSendsWithCorrectSackState() throws Exception {
        connection.autoAck(true);
        int mark = peer.mark();

        links.fromDut(fromDut(1, 100, 7), 49_152);
        peer.await(mark, PacketMatcher.expect().data().psn(100), WAIT);
        links.fromDut(fromDut(1, 102, 8), 49_152);
        List<AckPacket> acks = awaitAcks(2);
        links.fromDut(fromDut(1, 101, 9), 49_152);
        acks = awaitAcks(3);

        assertThat(acks).extracting(AckPacket::cumulativePsn).containsExactly(101L, 101L, 103L);
        assertThat(acks.get(1).sackBits()).containsExactly(1);
        assertThat(acks.get(2).sackBits()).isEmpty();
        assertThat(acks).extracting(AckPacket::echoedTimestamp).containsExactly(7L, 8L, 9L);
        assertThat(acks).allSatisfy(a -> {
            assertThat(a.header().pathId()).isEqualTo(1);
            assertThat(a.header().destinationConnectionId()).isEqualTo(DUT_ID);
        });
        assertThat(connection.receiveState(0).cumulativePsn()).isEqualTo(100);
    }

    @Test
    void shouldKeepPathReceiveStateAcrossTheWrap() {
        PathReceiveState state = new PathReceiveState(0xFFFF_FFFEL);

        assertThat(state.onPsn(0)).isEqualTo(PathReceiveState.Arrival.NEW);
        assertThat(state.sackBits()).containsExactly(2);
        assertThat(state.onPsn(0xFFFF_FFFEL)).isEqualTo(PathReceiveState.Arrival.NEW);
        assertThat(state.onPsn(0xFFFF_FFFFL)).isEqualTo(PathReceiveState.Arrival.NEW);
        assertThat(state.cumulativePsn()).isEqualTo(1);
        assertThat(state.onPsn(0)).isEqualTo(PathReceiveState.Arrival.DUPLICATE);
        assertThat(state.onPsn(0xFFFF_FFF0L)).isEqualTo(PathReceiveState.Arrival.DUPLICATE);
        assertThat(state.onPsn(257)).isEqualTo(PathReceiveState.Arrival.OUT_OF_WINDOW);
        assertThat(state.onPsn(256)).isEqualTo(PathReceiveState.Arrival.NEW);
        assertThat(state.hasReceived(256)).isTrue();
        assertThat(state.sackBits()).containsExactly(255);
    }

    private List<AckPacket> awaitAcks(int count) throws InterruptedException {
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (acks().size() < count && System.nanoTime() - deadlineNs < 0) {
            Thread.sleep(1);
        }
        assertThat(acks()).hasSize(count);
        return acks();
    }

    private List<AckPacket> acks() {
        return links.toDut.stream()
                .map(d -> Packet.fromBytes(d.payload()))
                .filter(AckPacket.class::isInstance)
                .map(AckPacket.class::cast)
                .toList();
    }

    private static byte[] fromDut(int path, long psn, long timestamp) {
        return PacketBuilder.write()
                .connection(TESTER_ID)
                .path(path)
                .psn(psn)
                .transmitTimestamp(timestamp)
                .payloadPattern(16, 0)
                .build();
    }
}

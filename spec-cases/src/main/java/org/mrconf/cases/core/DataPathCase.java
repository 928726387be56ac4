package org.mrconf.cases.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mrconf.cases.DeviceUnderTest;
import org.mrconf.cases.DutExtension;
import org.mrconf.cases.Testbed;
import org.mrconf.cases.Verifies;
import org.mrconf.dut.CompletionStatus;
import org.mrconf.dut.CompletionType;
import org.mrconf.dut.DutCompletion;
import org.mrconf.dut.DutControl;
import org.mrconf.dut.WorkRequest;
import org.mrconf.peer.PacketMatcher;
import org.mrconf.peer.PeerConnection;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.peer.TesterPeer;
import org.mrconf.wire.DataPacket;
import org.mrconf.wire.Opcode;

/**
 * The basic data path, seen from the wire: a WRITE arriving out of order is placed and selectively
 * acknowledged, a SEND lands in the receive posted for it, and a READ returns the region's bytes. The
 * tester peer plays the DUT's remote endpoint; every check is one the spec makes, with timing left to
 * generous limits since only the order and contents are normative here.
 */
@ExtendWith(DutExtension.class)
@DisplayName("Core data path")
class DataPathCase {
    private static final long TESTER_CONNECTION = Testbed.TESTER_CONNECTION;
    private static final long BASE = Testbed.BASE;
    private static final Duration WAIT = Testbed.WAIT;

    private Testbed testbed;
    private DutControl control;
    private TesterPeer peer;
    private PeerConnection connection;
    private long key;

    @BeforeEach
    void connect(final DeviceUnderTest dut) throws Exception {
        testbed = Testbed.open(dut, 4, 2); // more paths and a second stream than the default testbed
        control = testbed.control();
        peer = testbed.peer();
        connection = testbed.connection();
        key = testbed.key();
    }

    @AfterEach
    void disconnect() throws Exception {
        testbed.close();
    }

    @Test
    @DisplayName("an out-of-order WRITE is placed on arrival and selectively acknowledged")
    @Verifies("7.1.1")
    @Verifies("7.1.2")
    @Verifies("7.2.1")
    @Verifies("6.2.1")
    @Verifies("6.3.2")
    @Verifies("8.1.2")
    @Verifies("8.2.1")
    void outOfOrderWrite() throws Exception {
        final int segment = Math.min(1024, connection.maxPayload(Opcode.WRITE));
        final byte[] data = Testbed.randomBytes(4 * segment, 1);
        final long first = connection.nextPsn(0);
        final long msn = connection.nextMsn(0);
        final int[] order = {1, 3, 0, 2};
        final List<Long> timestamps = new ArrayList<>();
        int mark = peer.mark();
        for (int n = 0; n < order.length; n++) {
            final int i = order[n];
            final long timestamp = 1000 + n;
            timestamps.add(timestamp);
            peer.send(connection.packet(Opcode.WRITE, 0).psn(first + i).stream(0)
                    .msn(msn)
                    .messageLength(data.length)
                    .messageOffset((long) i * segment)
                    .remoteAddress(BASE + 64)
                    .remoteKey(key)
                    .transmitTimestamp(timestamp)
                    .payload(java.util.Arrays.copyOfRange(data, i * segment, (i + 1) * segment)));
            if (n == 0) {
                // PSN first + 1 opened a gap: the DUT reports it at once, with the gap visible (8.1.2).
                final ReceivedPacket ack = peer.await(
                        mark,
                        PacketMatcher.expect()
                                .ack()
                                .connection(TESTER_CONNECTION)
                                .path(0)
                                .cumulativePsn(first)
                                .sackIncludes(1)
                                .echoedTimestamp(timestamp),
                        WAIT);
                assertThat(ack.isValid()).isTrue();
                mark = peer.mark();
            }
        }
        connection.setNextPsn(0, first + order.length);

        peer.await(
                mark,
                PacketMatcher.expect()
                        .ack()
                        .connection(TESTER_CONNECTION)
                        .path(0)
                        .cumulativePsnAtLeast(first + order.length)
                        .echoedTimestampIn(timestamps),
                WAIT);
        assertThat(control.readRegion(key, BASE + 64, data.length)).isEqualTo(data);
    }

    @Test
    @DisplayName("a SEND lands in the receive posted for it and completes there")
    @Verifies("7.3.1")
    @Verifies("7.5.1")
    @Verifies("7.5.2")
    void sendIntoPostedReceive() throws Exception {
        final long receiveAddress = BASE + 0x4_0000;
        control.postReceive(new WorkRequest(Testbed.DUT_CONNECTION, 1, 501, key, receiveAddress, 8192));
        final byte[] data = Testbed.randomBytes(3000, 2);

        final int mark = peer.mark();
        final List<PeerConnection.Segment> segments = connection.sendMessage(1, data, 1, 2);

        final DutCompletion completion = testbed.awaitCompletion(501);
        assertThat(completion.type()).isEqualTo(CompletionType.RECEIVE);
        assertThat(completion.status()).isEqualTo(CompletionStatus.SUCCESS);
        assertThat(completion.length()).isEqualTo(data.length);
        assertThat(completion.stream()).isEqualTo(1);
        assertThat(control.readRegion(key, receiveAddress, data.length)).isEqualTo(data);
        for (final PeerConnection.Segment segment : segments) {
            peer.await(
                    mark,
                    PacketMatcher.expect()
                            .ack()
                            .connection(TESTER_CONNECTION)
                            .path(segment.path())
                            .covers(segment.psn()),
                    WAIT);
        }
    }

    @Test
    @DisplayName("a READ returns exactly the region's bytes in READ_RESPONSEs")
    @Verifies("7.4.1")
    @Verifies("5.2.6")
    void readReturnsRegionBytes() throws Exception {
        final long readAddress = BASE + 0x8_0000;
        final byte[] data = Testbed.randomBytes(6000, 3);
        control.writeRegion(key, readAddress, data);
        connection.autoAck(true);
        final int mark = peer.mark();
        final long sinkHandle = 0x55;
        final long msn = connection.nextMsn(0);

        final PeerConnection.Segment request = connection.readRequest(0, readAddress, key, data.length, sinkHandle, 2);

        final byte[] assembled = new byte[data.length];
        final boolean[] seen = new boolean[data.length];
        int received = 0;
        int responses = 0;
        final PacketMatcher response = PacketMatcher.expect()
                .data()
                .opcode(Opcode.READ_RESPONSE)
                .connection(TESTER_CONNECTION)
                .sinkHandle(sinkHandle);
        while (received < data.length) {
            final List<ReceivedPacket> packets = peer.recorder().awaitCount(mark, response, ++responses, WAIT);
            final DataPacket packet = packets.get(packets.size() - 1).data().orElseThrow();
            assertThat(packet.streamId()).isZero();
            assertThat(packet.messageSequenceNumber()).isEqualTo(msn);
            assertThat(packet.messageLength()).isEqualTo(data.length);
            final byte[] payload = packet.payload();
            for (int i = 0; i < payload.length; i++) {
                final int at = (int) packet.messageOffset() + i;
                if (!seen[at]) {
                    seen[at] = true;
                    received++;
                }
                assembled[at] = payload[i];
            }
        }
        assertThat(assembled).isEqualTo(data);
        peer.await(
                mark,
                PacketMatcher.expect()
                        .ack()
                        .connection(TESTER_CONNECTION)
                        .path(2)
                        .covers(request.psn()),
                WAIT);
    }
}

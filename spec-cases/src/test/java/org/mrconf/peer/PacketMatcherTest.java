package org.mrconf.peer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mrconf.dut.CapturedPacket;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.pcap.Ecn;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.NackCode;

class PacketMatcherTest {
    private static final long SENT_NS = 1_000_000;
    private static final DeviceDeclaration.Timers TIMERS = new DeviceDeclaration.Timers(
            Duration.ofMillis(1),
            Duration.ofMillis(1),
            Duration.ofMillis(100),
            Duration.ofNanos(8_000),
            16,
            3,
            Duration.ofSeconds(1),
            Duration.ofNanos(2_000));

    @Test
    void shouldAcceptAnyAckCoveringThePsn() {
        ReceivedPacket cumulative = received(PacketBuilder.ack().path(2).cumulativePsn(10));
        ReceivedPacket selective =
                received(PacketBuilder.ack().path(2).cumulativePsn(5).sackBits(3));

        assertThat(PacketMatcher.expect().ack().path(2).covers(9)).accepts(cumulative);
        assertThat(PacketMatcher.expect().covers(0)).accepts(cumulative);
        assertThat(PacketMatcher.expect().covers(10)).rejects(cumulative);
        assertThat(PacketMatcher.expect().covers(8)).accepts(selective);
        assertThat(PacketMatcher.expect().covers(7)).rejects(selective);
        assertThat(PacketMatcher.expect().coversAll(1, 4, 8)).accepts(selective);
    }

    @Test
    void shouldCompareAcrossThePsnWrap() {
        ReceivedPacket ack = received(PacketBuilder.ack().cumulativePsn(2).sackBits(1));
        ReceivedPacket beforeWrap =
                received(PacketBuilder.ack().cumulativePsn(0xFFFF_FFFEL).sackBits(3));

        assertThat(PacketMatcher.expect().covers(0xFFFF_FFFFL)).accepts(ack);
        assertThat(PacketMatcher.expect().covers(3)).accepts(ack);
        assertThat(PacketMatcher.expect().cumulativePsnAtLeast(0xFFFF_FFF0L)).accepts(ack);
        assertThat(PacketMatcher.expect().cumulativePsnAtLeast(3)).rejects(ack);
        assertThat(PacketMatcher.expect().covers(1)).accepts(beforeWrap);
    }

    @Test
    void shouldAllowTheDeclaredAckDelayPlusTolerance() {
        long deadline = SENT_NS + 10_000;
        PacketMatcher inTime = PacketMatcher.expect().ack().receivedWithinAckDeadline(SENT_NS, TIMERS);

        assertThat(inTime).accepts(received(PacketBuilder.ack(), deadline, true));
        assertThat(inTime).rejects(received(PacketBuilder.ack(), deadline + 1, true));
        assertThat(inTime.mismatch(received(PacketBuilder.ack(), deadline + 1, true)))
                .contains("expected received within 10 us of 1000000 ns, was 10001");
        assertThat(PacketMatcher.expect().receivedBy(deadline)).accepts(received(PacketBuilder.ack(), deadline, true));
    }

    @Test
    void shouldExplainTheFirstMismatch() {
        PacketMatcher m = PacketMatcher.expect().ack().connection(7).path(2).cumulativePsn(4);

        assertThat(m.description()).isEqualTo("ACK, connection 7, path 2, cumulative PSN 4");
        assertThat(m.mismatch(received(PacketBuilder.ack().connection(7).path(1))))
                .contains("expected path 2, was 1");
        assertThat(m.mismatch(received(PacketBuilder.write()))).contains("expected ACK, was WRITE");
        assertThat(m.mismatch(received(PacketBuilder.ack().connection(7).path(2).cumulativePsn(4))))
                .isEmpty();
        assertThat(PacketMatcher.expect().sackBits(1).mismatch(received(PacketBuilder.write())))
                .contains("expected SACK bits exactly [1], was not an ACK");
    }

    @Test
    void shouldNotClaimAnEcnTheLinkCannotSee() {
        PacketMatcher ect = PacketMatcher.expect().ecnCapable();

        assertThat(ect).accepts(received(PacketBuilder.write(), SENT_NS, true));
        assertThat(ect.mismatch(received(PacketBuilder.write(), SENT_NS, false)))
                .contains("expected ECN-capable (ECT(0) or ECT(1)), was not observable on this link");
    }

    @Test
    void shouldMatchDataNackAndMalformedPackets() {
        ReceivedPacket write = received(PacketBuilder.write().stream(3)
                .msn(4)
                .messageOffset(8)
                .messageLength(13)
                .remoteKey(9)
                .payload(new byte[] {1, 2, 3, 4, 5})
                .retransmission());
        ReceivedPacket nack = received(
                PacketBuilder.nack(NackCode.BOUNDS).stream(3).msn(4).psn(9).cumulativePsn(8));
        ReceivedPacket bad = received(PacketBuilder.write().badCrc());

        assertThat(PacketMatcher.expect().data().stream(3)
                        .msn(4)
                        .messageOffset(8)
                        .messageLength(13)
                        .remoteKey(9)
                        .payload(new byte[] {1, 2, 3, 4, 5})
                        .payloadLength(5)
                        .retransmission())
                .accepts(write);
        assertThat(PacketMatcher.expect().firstTransmission()).rejects(write);
        assertThat(PacketMatcher.expect().nack(NackCode.BOUNDS).stream(3)
                        .msn(4)
                        .psn(9)
                        .nackCumulativePsn(8))
                .accepts(nack);
        assertThat(PacketMatcher.expect().nack(NackCode.REMOTE_ACCESS)).rejects(nack);
        assertThat(PacketMatcher.expect().malformed(DecodeStatus.BAD_CRC)).accepts(bad);
        assertThat(PacketMatcher.expect().valid()).rejects(bad).accepts(write);
        assertThat(PacketMatcher.expect().nack().or(PacketMatcher.expect().data()))
                .accepts(write, nack)
                .rejects(bad);
        assertThat(PacketMatcher.expect().echoedTimestampIn(List.of(1L, 2L)))
                .accepts(received(PacketBuilder.ack().echoedTimestamp(2)))
                .rejects(received(PacketBuilder.ack()));
    }

    static ReceivedPacket received(PacketBuilder packet) {
        return received(packet, SENT_NS, true);
    }

    static ReceivedPacket received(PacketBuilder packet, long atNs, boolean ecnObserved) {
        return ReceivedPacket.decode(
                0,
                new CapturedPacket(
                        packet.build(),
                        InetAddress.getLoopbackAddress(),
                        49_152,
                        4800,
                        ecnObserved ? Ecn.ECT_0 : Ecn.NOT_ECT,
                        ecnObserved,
                        atNs,
                        Optional.empty()));
    }
}

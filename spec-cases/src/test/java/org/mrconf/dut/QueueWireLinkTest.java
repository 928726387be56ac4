package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.mrconf.pcap.ChecksumMode;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.EncodeOptions;
import org.mrconf.pcap.FrameCodec;

class QueueWireLinkTest {
    private static final InetSocketAddress TESTER = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4800);
    private static final InetSocketAddress DUT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 4796);

    private long nowNs = 1_000;
    private final List<Datagram> toDut = new ArrayList<>();
    private final QueueWireLink link = new QueueWireLink(TESTER, DUT, toDut::add, () -> nowNs);

    @Test
    void shouldPassTheStallsOfTheDeviceInThisProcessToWhoeverListensAndStopWhenToldTo() {
        final org.mrconf.peer.StallMonitor stalls = new org.mrconf.peer.StallMonitor(
                () -> nowNs, nanos -> {}, Duration.ofMillis(1), Duration.ofMillis(1), 16);
        link.deviceStalled(5_000_000, 2_000_000); // nobody listens yet: dropped
        link.reportDeviceStallsTo(stalls::record);
        link.deviceStalled(60_000_000, 30_000_000);

        assertThat(stalls.longestStallNs(40_000_000, 50_000_000)).isEqualTo(30_000_000);
        assertThat(stalls.longestStallNs(1_000_000, 6_000_000)).isZero();

        link.reportDeviceStallsTo(WireLink.DeviceStalls.NONE);
        link.deviceStalled(90_000_000, 40_000_000);
        assertThat(stalls.longestEverNs()).isEqualTo(30_000_000);
    }

    @Test
    void shouldHandWhatTheTesterSendsToTheDutSide() throws Exception {
        link.send(new byte[] {1, 2}, 50_000, Ecn.CE);
        link.send(new byte[] {3}, 50_001);

        assertThat(toDut)
                .containsExactly(
                        new Datagram(
                                new byte[] {1, 2}, new InetSocketAddress(TESTER.getAddress(), 50_000), DUT, Ecn.CE),
                        new Datagram(
                                new byte[] {3}, new InetSocketAddress(TESTER.getAddress(), 50_001), DUT, Ecn.NOT_ECT));
    }

    @Test
    void shouldStampWhatTheDutSendsWithTheClock() throws Exception {
        link.deliverFromDut(
                new Datagram(new byte[] {9}, new InetSocketAddress(DUT.getAddress(), 49_152), TESTER, Ecn.ECT_0));
        nowNs = 2_000;
        link.fromDut()
                .accept(new Datagram(
                        new byte[] {8}, new InetSocketAddress(DUT.getAddress(), 49_153), TESTER, Ecn.NOT_ECT));

        CapturedPacket first = link.receive(Duration.ZERO).orElseThrow();
        CapturedPacket second = link.receive(Duration.ZERO).orElseThrow();

        assertThat(first.bytes()).containsExactly(9);
        assertThat(first.sourcePort()).isEqualTo(49_152);
        assertThat(first.destinationPort()).isEqualTo(4800);
        assertThat(first.ecn()).isEqualTo(Ecn.ECT_0);
        assertThat(first.ecnObserved()).isTrue();
        assertThat(first.receivedNs()).isEqualTo(1_000);
        assertThat(second.receivedNs()).isEqualTo(2_000);
        assertThat(link.receive(Duration.ofMillis(1))).isEmpty();
    }

    @Test
    void shouldDiscardWhatItHoldsWithoutWaiting() throws Exception {
        for (int i = 0; i < 3; i++) {
            link.deliverFromDut(new Datagram(
                    new byte[] {(byte) i}, new InetSocketAddress(DUT.getAddress(), 49_152), TESTER, Ecn.NOT_ECT));
        }

        assertThat(link.discardWaiting()).isEqualTo(3);
        assertThat(link.receive(Duration.ZERO)).isEmpty();
        assertThat(link.discardWaiting()).isZero();
    }

    @Test
    void shouldSendFromAnotherAddressForUnexpectedSourceTests() throws Exception {
        InetAddress other = link.alternateSourceAddress().orElseThrow();

        link.sendFrom(other, new byte[] {1}, 50_000, Ecn.NOT_ECT);

        assertThat(other).isNotEqualTo(TESTER.getAddress()).isNotEqualTo(DUT.getAddress());
        assertThat(toDut.get(0).source()).isEqualTo(new InetSocketAddress(other, 50_000));
        assertThat(link.capabilities())
                .contains(
                        WireLink.Capability.SEND_ECN,
                        WireLink.Capability.RECEIVE_ECN,
                        WireLink.Capability.OTHER_SOURCE_ADDRESS)
                .doesNotContain(WireLink.Capability.MALFORMED_FRAMES);
        assertThat(link.frameSender())
                .as("a queue link sends no frames of its own")
                .isEmpty();
    }

    @Test
    void shouldRefuseUseAfterClose() {
        link.close();
        link.deliverFromDut(new Datagram(new byte[] {1}, DUT, TESTER, Ecn.NOT_ECT));

        assertThatThrownBy(() -> link.send(new byte[] {1}, 50_000)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> link.receive(Duration.ZERO)).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void shouldRefuseSourcePortZero() {
        assertThatThrownBy(() -> link.send(new byte[] {1}, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(toDut).isEmpty();
        assertThat(link.testerPort()).isEqualTo(4800);
        assertThat(link.dutAddress()).isEqualTo(DUT);
        assertThat(Optional.of(link.nowNs())).contains(1_000L);
    }

    @Test
    void shouldCarryWholeFramesBothWaysWhenAskedTo() throws Exception {
        final List<byte[]> frames = new ArrayList<>();
        final QueueWireLink framed = QueueWireLink.carryingFrames(TESTER, DUT, frames::add, () -> nowNs);

        framed.send(new byte[] {1, 2, 3}, 50_000, Ecn.ECT_0);
        final FrameSender sender = framed.frameSender().orElseThrow();
        sender.sendFrame(
                sender.frameTemplate().payload(new byte[] {4}).build(),
                EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.CORRUPT));

        final DecodedFrame first = FrameCodec.decode(frames.get(0));
        assertThat(first.frame().payloadBytes()).containsExactly(1, 2, 3);
        assertThat(first.frame().srcPort()).isEqualTo(50_000);
        assertThat(first.frame().dstPort()).isEqualTo(DUT.getPort());
        assertThat(first.frame().ecn()).isEqualTo(Ecn.ECT_0);
        assertThat(first.checksumsOk()).isTrue();
        assertThat(FrameCodec.decode(frames.get(1)).udpChecksumOk())
                .as("a frame sent with a chosen wrong checksum keeps it")
                .isFalse();
        assertThat(framed.capabilities()).contains(WireLink.Capability.MALFORMED_FRAMES);

        framed.deliverFrameFromDut(frames.get(1));
        framed.deliverFrameFromDut(new byte[] {1, 2, 3});
        final CapturedPacket back = framed.receive(Duration.ZERO).orElseThrow();
        assertThat(back.bytes()).containsExactly(4);
        assertThat(back.frame().orElseThrow().udpChecksumOk()).isFalse();
        assertThat(framed.receive(Duration.ZERO))
                .as("an undecodable frame is counted, not received")
                .isEmpty();
        assertThat(framed.undecodableFrames()).isEqualTo(1);
    }
}

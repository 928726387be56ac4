package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.pcap.DecodedFrame;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.FrameCodec;
import org.mrconf.pcap.Libpcap;
import org.mrconf.pcap.net.EcnDatagramSocket;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNetworkInterface.PromiscuousMode;

class UdpWireLinkTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration WAIT = Duration.ofSeconds(2);

    private final AtomicLong clock = new AtomicLong(5_000);
    private DatagramChannel dut;
    private UdpWireLink link;

    @BeforeEach
    void setUp() throws Exception {
        dut = DatagramChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
        link = UdpWireLink.open(
                (InetSocketAddress) dut.getLocalAddress(), new InetSocketAddress(LOOPBACK, 0), clock::get);
    }

    @AfterEach
    void tearDown() throws Exception {
        link.close();
        dut.close();
    }

    @Test
    void shouldSendFromTheChosenSourcePortsAndReceiveTheDutsReplies() throws Exception {
        int[] ports = freePorts(2);

        link.send(new byte[] {1, 1}, ports[0], Ecn.NOT_ECT);
        link.send(new byte[] {2, 2}, ports[1], Ecn.NOT_ECT);
        link.send(new byte[] {3, 3}, ports[0], Ecn.NOT_ECT);
        List<InetSocketAddress> sources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sources.add(receiveAtDut(new byte[2]));
        }
        reply(new byte[] {7, 7, 7}, link.testerPort());
        clock.set(6_000);
        CapturedPacket captured = link.receive(WAIT).orElseThrow();

        assertThat(sources).extracting(InetSocketAddress::getPort).containsExactly(ports[0], ports[1], ports[0]);
        assertThat(sources).extracting(InetSocketAddress::getAddress).containsOnly(LOOPBACK);
        assertThat(link.boundPorts()).containsExactlyInAnyOrder(link.testerPort(), ports[0], ports[1]);
        assertThat(captured.bytes()).containsExactly(7, 7, 7);
        assertThat(captured.sourceAddress()).isEqualTo(LOOPBACK);
        assertThat(captured.sourcePort()).isEqualTo(dut.socket().getLocalPort());
        assertThat(captured.destinationPort()).isEqualTo(link.testerPort());
        assertThat(captured.receivedNs()).isEqualTo(6_000);
        assertThat(captured.ecn()).isEqualTo(Ecn.NOT_ECT);
        assertThat(captured.ecnObserved()).isEqualTo(link.ecnUnseenReason().isEmpty());
        assertThat(captured.frame()).isEmpty();
    }

    /** Clause 4.1.7 over UDP: the link reads the ECN field of every datagram, on every port it bound. */
    @Test
    void shouldSeeTheEcnFieldOfEveryDatagramItReceives() throws Exception {
        assumeTrue(EcnDatagramSocket.platformSupported(), "the ECN-reading socket is Linux (64-bit) only");
        assertThat(link.ecnUnseenReason()).isEmpty();
        assertThat(link.capabilities()).contains(WireLink.Capability.RECEIVE_ECN);
        int sourcePort = link.sourcePorts(1)[0];
        List<Ecn> sent = List.of(Ecn.ECT_0, Ecn.CE, Ecn.NOT_ECT, Ecn.ECT_1);
        for (int i = 0; i < sent.size(); i++) {
            dut.setOption(StandardSocketOptions.IP_TOS, sent.get(i).codepoint());
            reply(new byte[] {(byte) i}, i % 2 == 0 ? link.testerPort() : sourcePort);
        }

        List<CapturedPacket> captured = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            captured.add(link.receive(WAIT).orElseThrow());
        }

        captured.sort(java.util.Comparator.comparingInt(c -> c.bytes()[0]));
        assertThat(captured).extracting(CapturedPacket::ecn).containsExactlyElementsOf(sent);
        assertThat(captured).extracting(CapturedPacket::ecnObserved).containsOnly(true);
        assertThat(captured)
                .extracting(CapturedPacket::destinationPort)
                .containsExactly(link.testerPort(), sourcePort, link.testerPort(), sourcePort);
        assertThat(captured)
                .extracting(CapturedPacket::sourcePort)
                .containsOnly(dut.socket().getLocalPort());
    }

    /** Where the ECN-reading socket cannot open, the link still works and says it does not see ECN. */
    @Test
    void shouldStillWorkWithoutEcnOnTheFallbackSockets() throws Exception {
        try (UdpWireLink fallback = UdpWireLink.open(
                (InetSocketAddress) dut.getLocalAddress(), new InetSocketAddress(LOOPBACK, 0), clock::get, false)) {
            dut.setOption(StandardSocketOptions.IP_TOS, Ecn.CE.codepoint());
            fallback.send(new byte[] {1}, fallback.testerPort(), Ecn.ECT_0);
            receiveAtDut(new byte[1]);
            reply(new byte[] {2}, fallback.testerPort());

            CapturedPacket captured = fallback.receive(WAIT).orElseThrow();

            assertThat(captured.bytes()).containsExactly(2);
            assertThat(captured.ecn()).isEqualTo(Ecn.NOT_ECT);
            assertThat(captured.ecnObserved()).isFalse();
            assertThat(fallback.capabilities()).doesNotContain(WireLink.Capability.RECEIVE_ECN);
            assertThat(fallback.ecnUnseenReason()).isPresent();
        }
    }

    @Test
    void shouldGiveDistinctSourcePortsFromTheOsAndUseTheirSockets() throws Exception {
        int[] ports = link.sourcePorts(3);

        assertThat(ports).doesNotHaveDuplicates().doesNotContain(link.testerPort(), 0);
        assertThat(link.boundPorts()).contains(ports[0], ports[1], ports[2]);
        link.send(new byte[] {4, 4}, ports[1], Ecn.NOT_ECT);
        InetSocketAddress source = receiveAtDut(new byte[2]);
        reply(new byte[] {8, 8}, ports[1]);
        CapturedPacket captured = link.receive(WAIT).orElseThrow();

        assertThat(source.getPort()).isEqualTo(ports[1]);
        assertThat(captured.destinationPort()).isEqualTo(ports[1]);
        assertThat(captured.bytes()).containsExactly(8, 8);
    }

    @Test
    void shouldAlsoReceiveWhatTheDutSendsToASourcePort() throws Exception {
        int port = freePorts(1)[0];
        link.send(new byte[] {1}, port);
        receiveAtDut(new byte[1]);

        reply(new byte[] {4}, port);

        CapturedPacket captured = link.receive(WAIT).orElseThrow();
        assertThat(captured.destinationPort()).isEqualTo(port);
    }

    @Test
    void shouldSendFromTheTestersOwnPortWithoutASecondSocket() throws Exception {
        link.send(new byte[] {1}, link.testerPort());

        assertThat(receiveAtDut(new byte[1]).getPort()).isEqualTo(link.testerPort());
        assertThat(link.boundPorts()).containsExactly(link.testerPort());
    }

    @Test
    void shouldSendFromAnotherLoopbackAddress() throws Exception {
        InetAddress other = link.alternateSourceAddress().orElseThrow();

        link.sendFrom(other, new byte[] {5}, freePorts(1)[0], Ecn.NOT_ECT);

        assertThat(other).isEqualTo(InetAddress.getByName("127.0.0.2"));
        assertThat(receiveAtDut(new byte[1]).getAddress()).isEqualTo(other);
        assertThat(link.capabilities())
                .contains(WireLink.Capability.SEND_ECN, WireLink.Capability.OTHER_SOURCE_ADDRESS);
    }

    @Test
    void shouldNotBlockASendWhileAnotherThreadWaitsToReceive() throws Exception {
        CompletableFuture<Optional<CapturedPacket>> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return link.receive(Duration.ofSeconds(3));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);
        int port = freePorts(1)[0];

        link.send(new byte[] {1}, port);
        receiveAtDut(new byte[1]);
        reply(new byte[] {2}, port);

        assertThat(waiting.get(2, TimeUnit.SECONDS))
                .get()
                .extracting(CapturedPacket::destinationPort)
                .isEqualTo(port);
    }

    @Test
    void shouldTimeOutEmptyAndRefuseUseAfterClose() throws Exception {
        assertThat(link.receive(Duration.ofMillis(20))).isEmpty();

        link.close();

        assertThatThrownBy(() -> link.receive(Duration.ZERO)).isInstanceOf(ClosedChannelException.class);
        assertThatThrownBy(() -> link.send(new byte[] {1}, 50_000)).isInstanceOf(ClosedChannelException.class);
    }

    /** Needs root and libpcap: captures on lo to see the ECN field of what the link sends. */
    @Test
    void shouldPutTheChosenEcnOnTheWire() throws Exception {
        RawEthernetWireLinkTest.assumeRootWithLibpcap();
        Libpcap.version();
        int port = freePorts(1)[0];
        PcapHandle handle = new PcapHandle.Builder("lo")
                .snaplen(2048)
                .promiscuousMode(PromiscuousMode.NONPROMISCUOUS)
                .timeoutMillis(20)
                .immediateMode(true)
                .build();
        try {
            handle.setFilter("udp and src port " + port, BpfCompileMode.OPTIMIZE);

            link.send(new byte[] {1}, port, Ecn.CE);
            link.send(new byte[] {2}, port, Ecn.ECT_1);
            link.send(new byte[] {3}, port, Ecn.NOT_ECT);

            List<Ecn> seen = new ArrayList<>();
            long deadlineNs = System.nanoTime() + WAIT.toNanos();
            while (seen.size() < 3 && System.nanoTime() - deadlineNs < 0) {
                byte[] raw = handle.getNextRawPacket();
                if (raw != null) {
                    DecodedFrame frame = FrameCodec.decode(raw);
                    seen.add(frame.frame().ecn());
                }
            }
            assertThat(seen).containsExactly(Ecn.CE, Ecn.ECT_1, Ecn.NOT_ECT);
        } finally {
            handle.close();
        }
    }

    private InetSocketAddress receiveAtDut(byte[] expected) throws Exception {
        dut.configureBlocking(true);
        dut.socket().setSoTimeout((int) WAIT.toMillis());
        ByteBuffer buffer = ByteBuffer.allocate(64);
        // DatagramChannel.receive ignores SO_TIMEOUT: use the socket adaptor's timed receive instead.
        java.net.DatagramPacket packet = new java.net.DatagramPacket(new byte[64], 64);
        dut.socket().receive(packet);
        assertThat(packet.getLength()).isEqualTo(expected.length);
        buffer.put(packet.getData(), 0, packet.getLength());
        return (InetSocketAddress) packet.getSocketAddress();
    }

    private void reply(byte[] payload, int testerPort) throws Exception {
        dut.send(ByteBuffer.wrap(payload), new InetSocketAddress(LOOPBACK, testerPort));
    }

    static int[] freePorts(int count) throws Exception {
        List<DatagramChannel> held = new ArrayList<>();
        int[] ports = new int[count];
        try {
            for (int i = 0; i < count; i++) {
                DatagramChannel c = DatagramChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
                held.add(c);
                ports[i] = c.socket().getLocalPort();
            }
        } finally {
            for (DatagramChannel c : held) {
                c.close();
            }
        }
        return ports;
    }
}

package org.mrconf.pcap.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Platform;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The native socket sees the ECN field of each datagram (clauses 8.2.5 for the soft DUT, 4.1.7 for the tester), which
 * the JDK cannot, and sends with the TOS asked for.
 */
class EcnDatagramSocketTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** One received datagram: its first payload byte, the ECN field, the length and the source. */
    private record Received(int tag, int ecn, int length, InetAddress source, int sourcePort) {}

    @Test
    void shouldReportTheEcnFieldAndSourceOfEveryDatagram() throws Exception {
        assumeTrue(Platform.isLinux(), "the native receive socket is Linux only; elsewhere the soft DUT falls back");
        try (EcnDatagramSocket socket = EcnDatagramSocket.open(new InetSocketAddress(LOOPBACK, 0), 1 << 20, 0, 65_536)
                        .orElseThrow();
                DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            sender.bind(new InetSocketAddress(LOOPBACK, 0));
            final int senderPort = ((InetSocketAddress) sender.getLocalAddress()).getPort();
            for (int ecn = 0; ecn < 4; ecn++) {
                sender.setOption(StandardSocketOptions.IP_TOS, ecn);
                sender.send(
                        ByteBuffer.wrap(new byte[] {(byte) ecn, 1, 2}), new InetSocketAddress(LOOPBACK, socket.port()));
            }

            final List<Received> received = new ArrayList<>();
            final long deadline = System.nanoTime() + 2_000_000_000L;
            while (received.size() < 4 && System.nanoTime() < deadline) {
                socket.receive(
                        (source, port, ecn, buffer, length) ->
                                received.add(new Received(buffer.get(0), ecn, length, source, port)),
                        16);
                Thread.sleep(1);
            }

            assertThat(received).hasSize(4);
            for (final Received datagram : received) {
                assertThat(datagram.ecn())
                        .as("ECN of datagram %d", datagram.tag())
                        .isEqualTo(datagram.tag());
                assertThat(datagram.length()).isEqualTo(3);
                assertThat(datagram.source()).isEqualTo(LOOPBACK);
                assertThat(datagram.sourcePort()).isEqualTo(senderPort);
            }
        }
    }

    @Test
    void shouldWakeTheSelectorWhenADatagramWaits() throws Exception {
        assumeTrue(Platform.isLinux(), "the native receive socket is Linux only");
        try (EcnDatagramSocket socket = EcnDatagramSocket.open(new InetSocketAddress(LOOPBACK, 0), 1 << 20, 0, 65_536)
                        .orElseThrow();
                Selector selector = Selector.open();
                DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            socket.wakeOnReadable(selector, "test-poll");
            sender.send(ByteBuffer.wrap(new byte[] {7}), new InetSocketAddress(LOOPBACK, socket.port()));

            final long deadline = System.nanoTime() + 2_000_000_000L;
            while (!socket.isReadable() && System.nanoTime() < deadline) {
                selector.select(100);
            }

            assertThat(socket.isReadable()).as("the poller saw the datagram").isTrue();
            assertThat(socket.receive((source, port, ecn, buffer, length) -> {}, 16))
                    .isEqualTo(1);
            assertThat(socket.isReadable())
                    .as("read to empty: the poller watches again")
                    .isFalse();
        }
    }

    @Test
    void shouldSendWithTheTosAskedForAndSeeItOnTheOtherSocket() throws Exception {
        assumeTrue(Platform.isLinux(), "the native socket is Linux only");
        try (EcnDatagramSocket a = EcnDatagramSocket.open(new InetSocketAddress(LOOPBACK, 0), 1 << 20, 0, 65_536)
                        .orElseThrow();
                EcnDatagramSocket b = EcnDatagramSocket.open(new InetSocketAddress(LOOPBACK, 0), 1 << 20, 0, 65_536)
                        .orElseThrow();
                EcnDatagramSocket.Poller poller =
                        EcnDatagramSocket.Poller.open().orElseThrow()) {
            for (int ecn = 0; ecn < 4; ecn++) {
                assertThat(a.send(new byte[] {9, (byte) ecn, 9}, 1, 1, b.localAddress(), ecn))
                        .isTrue();
            }
            final List<Received> received = new ArrayList<>();
            final long deadline = System.nanoTime() + 2_000_000_000L;
            while (received.size() < 4 && System.nanoTime() < deadline) {
                poller.await(List.of(a, b), 100);
                b.receive(
                        (source, port, ecn, buffer, length) ->
                                received.add(new Received(buffer.get(0), ecn, length, source, port)),
                        16);
            }

            assertThat(received).extracting(Received::ecn).containsExactly(0, 1, 2, 3);
            assertThat(received).extracting(Received::tag).containsExactly(0, 1, 2, 3);
            assertThat(received).extracting(Received::sourcePort).containsOnly(a.port());
        }
    }

    @Test
    void shouldEndAWaitEarlyOnWakeup() throws Exception {
        assumeTrue(Platform.isLinux(), "the native socket is Linux only");
        try (EcnDatagramSocket a = EcnDatagramSocket.open(new InetSocketAddress(LOOPBACK, 0), 1 << 20, 0, 65_536)
                        .orElseThrow();
                EcnDatagramSocket.Poller poller =
                        EcnDatagramSocket.Poller.open().orElseThrow()) {
            poller.wakeup();
            final long started = System.nanoTime();
            assertThat(poller.await(List.of(a), 5_000)).isZero();
            assertThat(System.nanoTime() - started).isLessThan(2_000_000_000L);
        }
    }
}

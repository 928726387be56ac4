package org.mrconf.softdut;

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

/** The native receive socket sees the ECN field of each datagram (spec clause 8.2.5), which the JDK cannot. */
class EcnReceiveSocketTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    /** One received datagram: its first payload byte, the ECN field, the length and the source. */
    private record Received(int tag, int ecn, int length, InetAddress source, int sourcePort) {}

    @Test
    void shouldReportTheEcnFieldAndSourceOfEveryDatagram() throws Exception {
        assumeTrue(Platform.isLinux(), "the native receive socket is Linux only; elsewhere the soft DUT falls back");
        try (EcnReceiveSocket socket = EcnReceiveSocket.open(LOOPBACK, 0, 1 << 20, 65_536);
                DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            assertThat(socket).as("the native socket opens on Linux").isNotNull();
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
        try (EcnReceiveSocket socket = EcnReceiveSocket.open(LOOPBACK, 0, 1 << 20, 65_536);
                Selector selector = Selector.open();
                DatagramChannel sender = DatagramChannel.open(StandardProtocolFamily.INET)) {
            socket.register(selector);
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
}

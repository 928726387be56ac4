package org.mrconf.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;

/**
 * The child processes of {@code metaroce bench udp}, one role per JVM, each announcing itself with one
 * {@code READY} line on standard output:
 *
 * <ul>
 *   <li>{@code endpoint LINE_RATE_BPS LOSS SEED}: a reference endpoint (a soft DUT) on loopback with
 *       its control server on a free port; {@code READY udp control}; runs until killed.
 *   <li>{@code sink}: a UDP socket that counts what it receives until an end marker (a 1-byte datagram);
 *       {@code READY port}, then {@code RESULT datagrams bytes nanoseconds} from the first to the last
 *       full datagram.
 *   <li>{@code source PORT DATAGRAM_BYTES MILLIS SOCKETS}: sends datagrams of that size as fast as the
 *       sockets take them, round-robin over that many sockets (as the endpoint spreads paths over its
 *       entropy sockets), then end markers; {@code READY}, then {@code SENT datagrams}.
 * </ul>
 *
 * The blaster (sink and source) uses the same socket kind, buffer sizes and datagram length as the
 * endpoint but no protocol: it is the machine's limit for the endpoint's figure.
 */
final class UdpChildMain {
    /** The endpoint's socket buffers (as {@code UdpNetwork} sets them). */
    static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private UdpChildMain() {}

    public static void main(final String[] args) throws Exception {
        final PrintStream out = System.out;
        switch (args[0]) {
            case "endpoint" ->
                endpoint(out, Long.parseLong(args[1]), Double.parseDouble(args[2]), Long.parseLong(args[3]));
            case "sink" -> sink(out);
            case "source" ->
                source(
                        out,
                        Integer.parseInt(args[1]),
                        Integer.parseInt(args[2]),
                        Long.parseLong(args[3]),
                        Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException("unknown role " + args[0]);
        }
    }

    private static void endpoint(final PrintStream out, final long lineRateBps, final double loss, final long seed)
            throws IOException {
        final SoftDutOptions options = SoftDutOptions.builder()
                .bindAddress(LOOPBACK)
                .udpPort(0)
                .controlPort(0)
                .endpoint(SoftDutOptions.defaultEndpointConfig().toBuilder()
                        .lineRate(lineRateBps)
                        .build())
                .injectedLoss(loss, seed)
                .build();
        final SoftDut dut = SoftDut.start(options);
        out.println("READY " + dut.udpPort() + " " + dut.controlPort());
        out.flush();
        dut.runUntilSignal();
    }

    private static void sink(final PrintStream out) throws IOException {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            channel.bind(new InetSocketAddress(LOOPBACK, 0));
            out.println("READY " + ((InetSocketAddress) channel.getLocalAddress()).getPort());
            out.flush();
            final ByteBuffer buffer = ByteBuffer.allocateDirect(65536);
            long datagrams = 0;
            long bytes = 0;
            long firstNs = 0;
            long lastNs = 0;
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                if (buffer.position() <= 1) {
                    break;
                }
                lastNs = System.nanoTime();
                if (datagrams == 0) {
                    firstNs = lastNs;
                }
                datagrams++;
                bytes += buffer.position();
            }
            out.println("RESULT " + datagrams + " " + bytes + " " + (lastNs - firstNs));
            out.flush();
        }
    }

    private static void source(
            final PrintStream out, final int port, final int datagramBytes, final long millis, final int sockets)
            throws Exception {
        final DatagramChannel[] channels = new DatagramChannel[sockets];
        try {
            for (int i = 0; i < sockets; i++) {
                channels[i] = DatagramChannel.open();
                channels[i].setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
                channels[i].bind(new InetSocketAddress(LOOPBACK, 0));
            }
            final InetSocketAddress sink = new InetSocketAddress(LOOPBACK, port);
            final ByteBuffer buffer = ByteBuffer.allocateDirect(datagramBytes);
            out.println("READY");
            out.flush();
            long sent = 0;
            final long endNs = System.nanoTime() + millis * 1_000_000L;
            while (System.nanoTime() - endNs < 0) {
                for (int i = 0; i < 64; i++) {
                    buffer.clear();
                    channels[(int) (sent % sockets)].send(buffer, sink);
                    sent++;
                }
            }
            // The sink may still be draining its buffer: repeat the marker until it has surely seen one.
            final ByteBuffer end = ByteBuffer.allocateDirect(1);
            for (int i = 0; i < 50; i++) {
                end.clear();
                channels[0].send(end, sink);
                Thread.sleep(10);
            }
            out.println("SENT " + sent);
            out.flush();
        } finally {
            for (final DatagramChannel channel : channels) {
                if (channel != null) {
                    channel.close();
                }
            }
        }
    }
}

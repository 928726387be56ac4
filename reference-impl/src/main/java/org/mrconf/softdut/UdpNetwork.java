package org.mrconf.softdut;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.LinkedHashMap;
import java.util.Map;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.pcap.net.EcnDatagramSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soft DUT on UDP: one non-blocking socket bound to the MetaRoCE port receives; K sockets bound to
 * ephemeral ports send, a packet with entropy {@code e} leaving from socket {@code e % K}. The source port on the
 * wire is the entropy the spec talks about (clause 4.1.4), so the transmitter tells the endpoint which port an
 * entropy value maps to, and re-pathing picks a value on another socket (clause 6.6.4).
 *
 * <p>ECN: each send socket's IP_TOS is set to the packet's ECN codepoint when it changes (if the platform lets
 * Java set it). The JDK cannot read the ECN field of a received datagram, so on Linux the receive socket is an
 * {@link EcnDatagramSocket} (IP_RECVTOS through JNA) and received CE marks reach the endpoint (clause 8.2.5).
 * Elsewhere it falls back to a {@code DatagramChannel}, every packet is reported Not-ECT, and
 * {@link #seesReceivedEcn()} is false, so the soft DUT does not claim the congestion profile.
 */
final class UdpNetwork implements Network {
    private static final Logger LOG = LoggerFactory.getLogger(UdpNetwork.class);
    private static final int MAX_DATAGRAM = 65536;
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;

    /** The receive socket when ECN is visible; else null and {@link #receiveChannel} receives. */
    private final EcnDatagramSocket ecnSocket;

    private final DatagramChannel receiveChannel;
    private final DatagramChannel[] sendChannels;
    private final int[] sendPorts;
    private final int[] lastTos;
    private final SocketPeers peers;
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final PacketTransmitter transmitter = new PacketTransmitter() {
        @Override
        public void transmit(
                final int dstNode,
                final int srcPort,
                final int ecn,
                final ByteBuffer buffer,
                final int offset,
                final int length) {
            UdpNetwork.this.transmit(dstNode, srcPort, ecn, buffer, offset, length);
        }

        @Override
        public int sourcePortOf(final int entropy) {
            return peers.sourcePort(entropy);
        }
    };
    private Inbound lastInbound;
    private EcnDatagramSocket.Handler lastHandler;
    private boolean tosWorks = true;
    private long txErrors;
    private long txUnroutable;
    private long rxErrors;

    private UdpNetwork(
            final EcnDatagramSocket ecnSocket,
            final DatagramChannel receiveChannel,
            final DatagramChannel[] sendChannels,
            final Class<? extends InetAddress> family) {
        this.ecnSocket = ecnSocket;
        this.receiveChannel = receiveChannel;
        this.sendChannels = sendChannels;
        this.sendPorts = new int[sendChannels.length];
        this.lastTos = new int[sendChannels.length];
        for (int i = 0; i < sendChannels.length; i++) {
            sendPorts[i] = sendChannels[i].socket().getLocalPort();
            lastTos[i] = -1;
        }
        this.peers = new SocketPeers(family, entropy -> sendPorts[Math.floorMod(entropy, sendPorts.length)]);
    }

    /** Binds the receive socket to {@code bindAddress}:{@code udpPort} and {@code entropyPorts} send sockets. */
    static UdpNetwork open(final InetAddress bindAddress, final int udpPort, final int entropyPorts)
            throws IOException {
        final ProtocolFamily family =
                bindAddress instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
        final DatagramChannel[] send = new DatagramChannel[entropyPorts];
        DatagramChannel receive = null;
        EcnDatagramSocket ecn = null;
        try {
            ecn = EcnDatagramSocket.open(
                            new InetSocketAddress(bindAddress, udpPort), SOCKET_BUFFER_BYTES, 0, MAX_DATAGRAM)
                    .orElse(null);
            if (ecn == null) {
                LOG.warn("cannot read the received ECN field on this platform: CE marks are not seen, and the"
                        + " congestion profile is not claimed");
                receive = DatagramChannel.open(family);
                receive.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
                receive.bind(new InetSocketAddress(bindAddress, udpPort));
                receive.configureBlocking(false);
            }
            for (int i = 0; i < entropyPorts; i++) {
                send[i] = DatagramChannel.open(family);
                send[i].setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
                send[i].bind(new InetSocketAddress(bindAddress, 0));
            }
            return new UdpNetwork(
                    ecn, receive, send, bindAddress instanceof Inet6Address ? Inet6Address.class : Inet4Address.class);
        } catch (final IOException | RuntimeException e) {
            if (ecn != null) {
                ecn.close();
            }
            closeQuietly(receive);
            for (final DatagramChannel channel : send) {
                closeQuietly(channel);
            }
            throw e;
        }
    }

    /** The bound MetaRoCE port. */
    int port() {
        return ecnSocket != null ? ecnSocket.port() : receiveChannel.socket().getLocalPort();
    }

    /** Whether received packets carry their real ECN field (clause 8.2.5); false on the fallback socket. */
    @Override
    public boolean seesReceivedEcn() {
        return ecnSocket != null;
    }

    @Override
    public void register(final Selector selector) throws IOException {
        if (ecnSocket != null) {
            ecnSocket.wakeOnReadable(selector, "mrconf-softdut-udp-poll-" + ecnSocket.port());
        } else {
            receiveChannel.register(selector, SelectionKey.OP_READ);
        }
    }

    @Override
    public int receive(final Inbound inbound, final int budget) {
        if (ecnSocket != null) {
            return Math.max(0, ecnSocket.receive(ecnHandler(inbound), budget));
        }
        int received = 0;
        while (received < budget) {
            receiveBuffer.clear();
            final InetSocketAddress source;
            try {
                source = (InetSocketAddress) receiveChannel.receive(receiveBuffer);
            } catch (final IOException e) {
                rxErrors++;
                return received;
            }
            if (source == null) {
                return received;
            }
            received++;
            inbound.onPacket(
                    source.getAddress(),
                    source.getPort(),
                    EcnCodepoint.NOT_ECT,
                    receiveBuffer,
                    0,
                    receiveBuffer.position());
        }
        return received;
    }

    /** Adapts the loop's handler; cached, since the loop passes the same one every time. */
    private EcnDatagramSocket.Handler ecnHandler(final Inbound inbound) {
        if (inbound != lastInbound) {
            lastInbound = inbound;
            lastHandler = (source, sourcePort, ecn, buffer, length) ->
                    inbound.onPacket(source, sourcePort, ecn, buffer, 0, length);
        }
        return lastHandler;
    }

    @Override
    public boolean hasPending() {
        return ecnSocket != null && ecnSocket.isReadable();
    }

    @Override
    public PacketTransmitter transmitter() {
        return transmitter;
    }

    @Override
    public SocketPeers peers() {
        return peers;
    }

    private void transmit(
            final int dstNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length) {
        final InetSocketAddress destination = peers.destination(dstNode);
        if (destination == null) {
            txUnroutable++;
            return;
        }
        final int socket = Math.floorMod(srcPort, sendChannels.length);
        final DatagramChannel channel = sendChannels[socket];
        if (tosWorks && lastTos[socket] != ecn) {
            try {
                channel.setOption(StandardSocketOptions.IP_TOS, ecn);
                lastTos[socket] = ecn;
            } catch (final IOException | RuntimeException e) {
                tosWorks = false;
                LOG.warn("cannot set IP_TOS, so packets leave without ECN marking: {}", e.toString());
            }
        }
        sendBuffer.clear();
        sendBuffer.put(0, buffer, offset, length);
        sendBuffer.limit(length);
        try {
            channel.send(sendBuffer, destination);
        } catch (final ClosedChannelException e) {
            // Stopping.
        } catch (final IOException e) {
            txErrors++;
        }
    }

    @Override
    public Map<String, Long> counters() {
        final Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("udp_tx_errors", txErrors);
        counters.put("udp_tx_unroutable", txUnroutable);
        counters.put("udp_rx_errors", rxErrors);
        return counters;
    }

    @Override
    public void close() {
        if (ecnSocket != null) {
            ecnSocket.close();
        }
        closeQuietly(receiveChannel);
        for (final DatagramChannel channel : sendChannels) {
            closeQuietly(channel);
        }
    }

    private static void closeQuietly(final DatagramChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException e) {
                // Nothing useful to do.
            }
        }
    }
}

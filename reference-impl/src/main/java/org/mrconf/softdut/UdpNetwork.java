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
import org.mrconf.net.Ecn;
import org.mrconf.net.PacketTransmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soft DUT on UDP: one non-blocking socket bound to the MetaRoCE port receives; K sockets bound to
 * ephemeral ports send. Each entropy value gets the next socket in turn the first time it is used, and keeps it,
 * so the wire's source port follows the endpoint's path entropy as far as K sockets allow: a path that re-paths
 * (clause 6.6.4) leaves from another socket unless K other new entropy values came first.
 *
 * <p>ECN: each send socket's IP_TOS is set to the packet's ECN codepoint when it changes (if the platform
 * lets Java set it). Plain Java cannot read the ECN field of a received datagram, so received packets are
 * reported as Not-ECT: a soft DUT on UDP never sees CE marks.
 */
final class UdpNetwork implements Network {
    private static final Logger LOG = LoggerFactory.getLogger(UdpNetwork.class);
    private static final int MAX_DATAGRAM = 65536;
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;

    private final DatagramChannel receiveChannel;
    private final DatagramChannel[] sendChannels;
    private final int[] sendPorts;
    private final int[] lastTos;
    /** The send socket of each entropy value, or -1 before its first use. */
    private final int[] socketOfEntropy = new int[65536];

    private int nextSocket;
    private final SocketPeers peers;
    private final ByteBuffer receiveBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final ByteBuffer sendBuffer = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    private final PacketTransmitter transmitter = this::transmit;
    private boolean tosWorks = true;
    private long txErrors;
    private long txUnroutable;
    private long rxErrors;

    private UdpNetwork(
            final DatagramChannel receiveChannel,
            final DatagramChannel[] sendChannels,
            final Class<? extends InetAddress> family) {
        this.receiveChannel = receiveChannel;
        this.sendChannels = sendChannels;
        this.sendPorts = new int[sendChannels.length];
        this.lastTos = new int[sendChannels.length];
        for (int i = 0; i < sendChannels.length; i++) {
            sendPorts[i] = sendChannels[i].socket().getLocalPort();
            lastTos[i] = -1;
        }
        java.util.Arrays.fill(socketOfEntropy, -1);
        this.peers = new SocketPeers(family, entropy -> sendPorts[socketOf(entropy)]);
    }

    /** Binds the receive socket to {@code bindAddress}:{@code udpPort} and {@code entropyPorts} send sockets. */
    static UdpNetwork open(final InetAddress bindAddress, final int udpPort, final int entropyPorts)
            throws IOException {
        final ProtocolFamily family =
                bindAddress instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
        final DatagramChannel[] send = new DatagramChannel[entropyPorts];
        DatagramChannel receive = null;
        try {
            receive = DatagramChannel.open(family);
            receive.setOption(StandardSocketOptions.SO_RCVBUF, SOCKET_BUFFER_BYTES);
            receive.bind(new InetSocketAddress(bindAddress, udpPort));
            receive.configureBlocking(false);
            for (int i = 0; i < entropyPorts; i++) {
                send[i] = DatagramChannel.open(family);
                send[i].setOption(StandardSocketOptions.SO_SNDBUF, SOCKET_BUFFER_BYTES);
                send[i].bind(new InetSocketAddress(bindAddress, 0));
            }
            return new UdpNetwork(
                    receive, send, bindAddress instanceof Inet6Address ? Inet6Address.class : Inet4Address.class);
        } catch (final IOException | RuntimeException e) {
            closeQuietly(receive);
            for (final DatagramChannel channel : send) {
                closeQuietly(channel);
            }
            throw e;
        }
    }

    /** The bound MetaRoCE port. */
    int port() {
        return receiveChannel.socket().getLocalPort();
    }

    @Override
    public void register(final Selector selector) throws IOException {
        receiveChannel.register(selector, SelectionKey.OP_READ);
    }

    @Override
    public int receive(final Inbound inbound, final int budget) {
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
                    source.getAddress(), source.getPort(), Ecn.NOT_ECT, receiveBuffer, 0, receiveBuffer.position());
        }
        return received;
    }

    @Override
    public boolean hasPending() {
        return false;
    }

    @Override
    public PacketTransmitter transmitter() {
        return transmitter;
    }

    @Override
    public SocketPeers peers() {
        return peers;
    }

    private int socketOf(final int entropy) {
        final int index = entropy & 0xFFFF;
        int socket = socketOfEntropy[index];
        if (socket < 0) {
            socket = nextSocket;
            nextSocket = (nextSocket + 1) % sendChannels.length;
            socketOfEntropy[index] = socket;
        }
        return socket;
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
        final int socket = socketOf(srcPort);
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

package org.mrconf.softdut;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.net.UdpFraming;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soft DUT without sockets: packets go to an {@link OutboundSink} with their entropy as source port,
 * and arrive through a bounded queue that any thread may fill ({@link #offer}); the ECN field is carried
 * both ways. A full queue drops, like a full NIC ring.
 *
 * <p>In frame mode ({@link FrameCarriage}) whole Ethernet frames travel instead, both ways: the DUT builds the
 * frames it sends and checks the IP and UDP checksums of the ones it receives ({@link UdpFraming}, spec clause
 * 4.1.6), as a NIC below the host stack does. Each dropped frame is counted by its reason.
 */
final class InMemoryNetwork implements Network {
    /** Most packets waiting to be received. */
    static final int QUEUE_CAPACITY = 65536;

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryNetwork.class);

    /** A received datagram, or (source null) a whole frame still to be checked. */
    private record Arrival(byte[] packet, InetAddress source, int sourcePort, int ecn) {}

    /**
     * What frame mode needs: the framing with the device's checksum rules, the device's own address and MetaRoCE
     * port (frames for another port are dropped, as a host would), and where its frames go.
     */
    record FrameCarriage(UdpFraming framing, InetAddress address, int port, FrameSink sink) {}

    /** The MAC labels of the in-memory link's two ends (locally administered). */
    private static final byte[] DUT_MAC = {0x02, 0, 0, 0, 0, 0x01};

    private static final byte[] BROADCAST_MAC = {-1, -1, -1, -1, -1, -1};

    private final OutboundSink sink;
    private final FrameCarriage frames;
    private final Map<UdpFraming.Drop, Long> frameDrops = new EnumMap<>(UdpFraming.Drop.class);
    private byte[] peerMac = BROADCAST_MAC;
    private long frameWrongPortDrops;
    private final SocketPeers peers = new SocketPeers(null, entropy -> entropy);
    private final ArrayBlockingQueue<Arrival> arrivals = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong queueDrops = new AtomicLong();
    private final PacketTransmitter transmitter = this::transmit;
    private long sinkErrors;
    private long txUnroutable;

    InMemoryNetwork(final OutboundSink sink) {
        this.sink = sink;
        this.frames = null;
    }

    /** Frame mode: whole frames in ({@link #offerFrame}) and out (to the carriage's sink). */
    InMemoryNetwork(final FrameCarriage frames) {
        this.sink = null;
        this.frames = frames;
        for (final UdpFraming.Drop drop : UdpFraming.Drop.values()) {
            frameDrops.put(drop, 0L);
        }
    }

    /** Whether whole frames travel ({@link #offerFrame}) rather than datagrams ({@link #offer}). */
    boolean carriesFrames() {
        return frames != null;
    }

    /** Queues one whole Ethernet frame as received (frame mode); any thread. False if the queue was full. */
    boolean offerFrame(final byte[] frame) {
        return queue(new Arrival(frame, null, 0, 0));
    }

    /** Queues a packet as received; any thread. Returns false (and counts a drop) when the queue is full. */
    boolean offer(final byte[] packet, final InetAddress source, final int sourcePort, final int ecn) {
        return queue(new Arrival(packet, source, sourcePort, ecn));
    }

    private boolean queue(final Arrival arrival) {
        if (arrivals.offer(arrival)) {
            return true;
        }
        queueDrops.incrementAndGet();
        return false;
    }

    @Override
    public void register(final Selector selector) {
        // Nothing to watch: offer() wakes the loop.
    }

    @Override
    public int receive(final Inbound inbound, final int budget) {
        int received = 0;
        Arrival arrival;
        while (received < budget && (arrival = arrivals.poll()) != null) {
            received++;
            if (arrival.source == null) {
                receiveFrame(inbound, arrival.packet);
                continue;
            }
            inbound.onPacket(
                    arrival.source,
                    arrival.sourcePort,
                    arrival.ecn,
                    ByteBuffer.wrap(arrival.packet),
                    0,
                    arrival.packet.length);
        }
        return received;
    }

    private void receiveFrame(final Inbound inbound, final byte[] frame) {
        final UdpFraming.Decoded decoded = frames.framing().decode(frame);
        if (decoded.drop() != null) {
            frameDrops.merge(decoded.drop(), 1L, Long::sum);
            return;
        }
        final UdpFraming.Received datagram = decoded.datagram();
        if (datagram.destinationPort() != frames.port()) {
            frameWrongPortDrops++;
            return;
        }
        if (!Arrays.equals(frame, 6, 12, peerMac, 0, 6)) {
            peerMac = Arrays.copyOfRange(frame, 6, 12); // the one peer's MAC: where replies go
        }
        inbound.onPacket(
                datagram.source(),
                datagram.sourcePort(),
                datagram.ecn(),
                ByteBuffer.wrap(frame),
                datagram.payloadOffset(),
                datagram.payloadLength());
    }

    @Override
    public boolean seesReceivedEcn() {
        return true; // the ECN field travels with every delivered packet
    }

    @Override
    public boolean hasPending() {
        return !arrivals.isEmpty();
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
        try {
            if (frames != null) {
                frames.sink()
                        .accept(frames.framing()
                                .encode(
                                        DUT_MAC,
                                        peerMac,
                                        frames.address(),
                                        destination.getAddress(),
                                        srcPort,
                                        destination.getPort(),
                                        ecn,
                                        buffer,
                                        offset,
                                        length));
                return;
            }
            final byte[] packet = new byte[length];
            buffer.get(offset, packet);
            sink.accept(packet, destination.getAddress(), destination.getPort(), srcPort, ecn);
        } catch (final RuntimeException e) {
            if (sinkErrors++ == 0) {
                LOG.warn("the outbound sink failed; the packet is lost", e);
            }
        }
    }

    @Override
    public Map<String, Long> counters() {
        final Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("memory_rx_queue_drops", queueDrops.get());
        counters.put("memory_tx_sink_errors", sinkErrors);
        counters.put("memory_tx_unroutable", txUnroutable);
        if (frames != null) {
            frameDrops.forEach(
                    (drop, count) -> counters.put("frame_" + drop.name().toLowerCase(Locale.ROOT) + "_drops", count));
            counters.put("frame_wrong_port_drops", frameWrongPortDrops);
        }
        return counters;
    }

    @Override
    public void close() {
        arrivals.clear();
    }
}

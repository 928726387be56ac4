package org.mrconf.softdut;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Selector;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.mrconf.net.PacketTransmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The soft DUT without sockets: packets go to an {@link OutboundSink} with their entropy as source port,
 * and arrive through a bounded queue that any thread may fill ({@link #offer}); the ECN field is carried
 * both ways. A full queue drops, like a full NIC ring.
 */
final class InMemoryNetwork implements Network {
    /** Most packets waiting to be received. */
    static final int QUEUE_CAPACITY = 65536;

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryNetwork.class);

    private record Arrival(byte[] packet, InetAddress source, int sourcePort, int ecn) {}

    private final OutboundSink sink;
    private final SocketPeers peers = new SocketPeers(null, entropy -> entropy);
    private final ArrayBlockingQueue<Arrival> arrivals = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong queueDrops = new AtomicLong();
    private final PacketTransmitter transmitter = this::transmit;
    private long sinkErrors;
    private long txUnroutable;

    InMemoryNetwork(final OutboundSink sink) {
        this.sink = sink;
    }

    /** Queues a packet as received; any thread. Returns false (and counts a drop) when the queue is full. */
    boolean offer(final byte[] packet, final InetAddress source, final int sourcePort, final int ecn) {
        if (arrivals.offer(new Arrival(packet, source, sourcePort, ecn))) {
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
        final byte[] packet = new byte[length];
        buffer.get(offset, packet);
        try {
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
        return counters;
    }

    @Override
    public void close() {
        arrivals.clear();
    }
}

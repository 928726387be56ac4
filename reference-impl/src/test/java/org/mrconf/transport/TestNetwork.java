package org.mrconf.transport;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketTransmitter;
import org.mrconf.wire.Packet;

/**
 * A minimal deterministic network for endpoint unit tests: a fixed one-way delay, a filter that can
 * drop, mark or delay chosen packets, and a log of every packet sent. Virtual time only.
 */
final class TestNetwork {
    /** One packet on the wire, as the log records it. */
    record Sent(long timeNs, int from, int to, int srcPort, int ecn, Packet packet, byte[] bytes) {}

    /** Decides the fate of a packet: return false to drop it. May change {@code ecn} via {@link Fate}. */
    interface Filter {
        boolean deliver(Sent sent, Fate fate);
    }

    /** What a filter may change about a delivered packet. */
    static final class Fate {
        int ecn;
        long extraDelayNs;
    }

    private record Delivery(long atNs, long sequence, int from, int to, int srcPort, int ecn, byte[] bytes)
            implements Comparable<Delivery> {
        @Override
        public int compareTo(final Delivery other) {
            final int byTime = Long.compare(atNs, other.atNs);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private final long oneWayDelayNs;
    private final PriorityQueue<Delivery> inFlight = new PriorityQueue<>();
    private final List<Endpoint> endpoints = new ArrayList<>();
    final List<Sent> log = new ArrayList<>();
    private Filter filter = (sent, fate) -> true;
    private long nowNs;
    private long sequence;

    TestNetwork(final long oneWayDelayNs) {
        this.oneWayDelayNs = oneWayDelayNs;
    }

    /** Adds an endpoint as the next node id (0, 1, ...). */
    Endpoint add(final EndpointConfig config) {
        final int node = endpoints.size();
        final Endpoint endpoint = new Endpoint(config, transmitter(node), () -> nowNs);
        endpoints.add(endpoint);
        return endpoint;
    }

    void filter(final Filter filter) {
        this.filter = filter;
    }

    long nowNs() {
        return nowNs;
    }

    /** Injects raw bytes as if node {@code from} had sent them to node {@code to}. */
    void inject(final int from, final int to, final int srcPort, final int ecn, final byte[] bytes) {
        inFlight.add(new Delivery(nowNs, sequence++, from, to, srcPort, ecn, bytes.clone()));
    }

    private PacketTransmitter transmitter(final int node) {
        return (dstNode, srcPort, ecn, buffer, offset, length) -> {
            final byte[] bytes = new byte[length];
            buffer.get(offset, bytes);
            final Sent sent = new Sent(nowNs, node, dstNode, srcPort, ecn, Packet.fromBytes(bytes), bytes);
            log.add(sent);
            final Fate fate = new Fate();
            fate.ecn = ecn;
            if (filter.deliver(sent, fate)) {
                inFlight.add(new Delivery(
                        nowNs + oneWayDelayNs + fate.extraDelayNs,
                        sequence++,
                        node,
                        dstNode,
                        srcPort,
                        fate.ecn,
                        bytes));
            }
        };
    }

    /** Runs events until {@code done} holds or virtual time passes {@code limitNs}; returns whether done. */
    boolean runUntil(final BooleanSupplier done, final long limitNs) {
        while (!done.getAsBoolean()) {
            long next = inFlight.isEmpty() ? Long.MAX_VALUE : inFlight.peek().atNs;
            int wakeNode = -1;
            for (int i = 0; i < endpoints.size(); i++) {
                final long wake = endpoints.get(i).nextWakeupNs();
                if (wake < next
                        || (wake == next && wakeNode < 0 && (inFlight.isEmpty() || wake < inFlight.peek().atNs))) {
                    next = wake;
                    wakeNode = i;
                }
            }
            if (next == Long.MAX_VALUE || next > limitNs) {
                nowNs = Math.max(nowNs, Math.min(limitNs, next));
                return done.getAsBoolean();
            }
            nowNs = Math.max(nowNs, next);
            if (wakeNode >= 0) {
                endpoints.get(wakeNode).onWakeup(nowNs);
            } else {
                final Delivery d = inFlight.poll();
                endpoints
                        .get(d.to)
                        .onPacket(d.from, d.srcPort, d.ecn, ByteBuffer.wrap(d.bytes), 0, d.bytes.length, nowNs);
            }
        }
        return true;
    }

    /** Runs until nothing is left to do, or {@code limitNs}. */
    void runIdle(final long limitNs) {
        runUntil(() -> false, limitNs);
    }

    /** Packets from {@code node} of the given type, in send order. */
    <T extends Packet> List<T> sentBy(final int node, final Class<T> type) {
        final List<T> packets = new ArrayList<>();
        for (final Sent sent : log) {
            if (sent.from() == node && type.isInstance(sent.packet())) {
                packets.add(type.cast(sent.packet()));
            }
        }
        return packets;
    }

    static boolean isCe(final int ecn) {
        return ecn == EcnCodepoint.CE;
    }
}

package org.mrconf.fabric;

import org.mrconf.net.EcnCodepoint;

/**
 * One direction of one simulated cable with the switch queue in front of it: an impairment, a FIFO
 * with a byte capacity and an ECN marking threshold, a serialiser at the line rate and a propagation
 * delay. Created by {@link Fabric}: one uplink and one downlink per node and one per route per ordered
 * pair of nodes.
 *
 * <p>A packet entering the link first meets the impairment (which may drop, copy, delay or corrupt
 * it), then the queue: it is tail-dropped if its wire bytes do not fit, marked CE if it is
 * ECN-capable and finds more than the threshold queued, and otherwise serialised after the packets
 * ahead of it. The serialiser keeps its busy time in picoseconds, so back-to-back packets do not
 * accumulate rounding; the arrival at the next hop is rounded up to the next nanosecond.
 *
 * <p>Tests and benchmarks read the counters; nothing resets them but {@link #resetCounters()}.
 */
public final class Link {
    /** Which part of the topology a link is. */
    public enum Kind {
        /** Host to fabric: the sending node's NIC queue. */
        UPLINK,
        /** One of the parallel core routes between two nodes. */
        ROUTE,
        /** Fabric to host: the last switch port before the receiving node. */
        DOWNLINK
    }

    private final Fabric fabric;
    private final Simulator simulator;
    private final int id;
    private final Kind kind;
    private final int srcNode;
    private final int dstNode;
    private final int routeIndex;
    private final int wireOverheadBytes;
    private final EventHandler serializationDone = (nowNs, arg) -> onSerializationDone();

    private LinkConfig config;
    private LinkImpairment impairment = LinkImpairment.NONE;

    private FabricPacket head;
    private FabricPacket tail;
    private int queueBytes;
    private int queuedPackets;
    private boolean busy;
    private long busyUntilPs;

    private long packetsSent;
    private long bytesSent;
    private long wireBytesSent;
    private long queueDrops;
    private long ecnMarks;
    private long impairmentDrops;
    private long duplicates;
    private long corruptions;
    private int maxQueueBytes;

    Link(
            final Fabric fabric,
            final int id,
            final Kind kind,
            final int srcNode,
            final int dstNode,
            final int routeIndex,
            final LinkConfig config) {
        this.fabric = fabric;
        this.simulator = fabric.simulator();
        this.id = id;
        this.kind = kind;
        this.srcNode = srcNode;
        this.dstNode = dstNode;
        this.routeIndex = routeIndex;
        this.wireOverheadBytes = fabric.config().wireOverheadBytes();
        this.config = config;
    }

    /** A number unique within the fabric, in creation order. */
    public int id() {
        return id;
    }

    public Kind kind() {
        return kind;
    }

    /** The sending node, or -1 for a downlink (which carries packets from every node). */
    public int srcNode() {
        return srcNode;
    }

    /** The receiving node, or -1 for an uplink (which carries packets to every node). */
    public int dstNode() {
        return dstNode;
    }

    /** The route index for a {@link Kind#ROUTE} link, otherwise -1. */
    public int routeIndex() {
        return routeIndex;
    }

    public LinkConfig config() {
        return config;
    }

    /**
     * Changes rate, propagation delay, capacity or threshold. Queued packets stay; the new values apply
     * to packets enqueued, and serialisations started, from now on. A longer propagation delay models a
     * long-haul route.
     */
    public Link configure(final LinkConfig config) {
        if (config == null) {
            throw new NullPointerException("config");
        }
        this.config = config;
        return this;
    }

    public LinkImpairment impairment() {
        return impairment;
    }

    /** Sets what happens to packets entering the link from now on ({@link LinkImpairment#NONE} to heal it). */
    public Link impairment(final LinkImpairment impairment) {
        if (impairment == null) {
            throw new NullPointerException("impairment");
        }
        this.impairment = impairment;
        return this;
    }

    /** Packets that finished serialising onto the wire. */
    public long packetsSent() {
        return packetsSent;
    }

    /** UDP payload bytes of those packets. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Wire bytes (payload plus overhead) of those packets. */
    public long wireBytesSent() {
        return wireBytesSent;
    }

    /** Packets tail-dropped because the queue was full. */
    public long queueDrops() {
        return queueDrops;
    }

    /** Packets marked CE by this link's queue. */
    public long ecnMarks() {
        return ecnMarks;
    }

    /** Packets the impairment dropped. */
    public long impairmentDrops() {
        return impairmentDrops;
    }

    /** Extra copies the impairment made. */
    public long duplicates() {
        return duplicates;
    }

    /** Packets the impairment corrupted. */
    public long corruptions() {
        return corruptions;
    }

    /** Highest queue occupancy seen, in wire bytes. */
    public int maxQueueBytes() {
        return maxQueueBytes;
    }

    /** Current queue occupancy in wire bytes, the packet being serialised included. */
    public int queueBytes() {
        return queueBytes;
    }

    /** Packets queued, the one being serialised included. */
    public int queuedPackets() {
        return queuedPackets;
    }

    /** Zeroes the counters, and sets the maximum occupancy to the current one, e.g. after a warm-up. */
    public void resetCounters() {
        packetsSent = 0;
        bytesSent = 0;
        wireBytesSent = 0;
        queueDrops = 0;
        ecnMarks = 0;
        impairmentDrops = 0;
        duplicates = 0;
        corruptions = 0;
        maxQueueBytes = queueBytes;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UPLINK -> "uplink(" + srcNode + ')';
            case DOWNLINK -> "downlink(" + dstNode + ')';
            case ROUTE -> "route(" + srcNode + "->" + dstNode + " #" + routeIndex + ')';
        };
    }

    /** A packet enters the link: called by {@link Fabric} at each hop. */
    void offer(final FabricPacket packet, final long nowNs) {
        if (impairment == LinkImpairment.NONE) {
            if (!enqueue(packet, nowNs)) {
                fabric.release(packet);
            }
            return;
        }

        final PacketFate fate = fabric.fate();
        fate.reset(packet);
        impairment.impair(nowNs, fate);
        if (fate.bitFlips() > 0) {
            corruptions++;
            fabric.tap(nowNs, TapEvent.CORRUPTED, this, packet);
        }
        if (fate.isDropped()) {
            impairmentDrops++;
            fabric.tap(nowNs, TapEvent.IMPAIRMENT_DROPPED, this, packet);
            fabric.release(packet);
            return;
        }
        packet.extraDelayNs += fate.extraDelayNs();
        final int copies = fate.duplicates();
        // The copies are taken before anything is released, so a tail-dropped original still has them.
        final boolean accepted = enqueue(packet, nowNs);
        for (int i = 0; i < copies; i++) {
            final FabricPacket copy = fabric.copyOf(packet);
            duplicates++;
            fabric.tap(nowNs, TapEvent.DUPLICATED, this, copy);
            if (!enqueue(copy, nowNs)) {
                fabric.release(copy);
            }
        }
        if (!accepted) {
            fabric.release(packet);
        }
    }

    private boolean enqueue(final FabricPacket packet, final long nowNs) {
        final int wireBytes = packet.length + wireOverheadBytes;
        if ((long) queueBytes + wireBytes > config.queueCapacityBytes()) {
            queueDrops++;
            fabric.tap(nowNs, TapEvent.QUEUE_DROPPED, this, packet);
            return false;
        }
        if (queueBytes > config.ecnThresholdBytes() && EcnCodepoint.isCapable(packet.ecn)) {
            packet.ecn = EcnCodepoint.CE;
            ecnMarks++;
            fabric.tap(nowNs, TapEvent.ECN_MARKED, this, packet);
        }
        queueBytes += wireBytes;
        queuedPackets++;
        if (queueBytes > maxQueueBytes) {
            maxQueueBytes = queueBytes;
        }
        packet.next = null;
        if (tail == null) {
            head = packet;
        } else {
            tail.next = packet;
        }
        tail = packet;
        if (!busy) {
            startSerialization(Math.max(nowNs * 1000L, busyUntilPs));
        }
        return true;
    }

    private void startSerialization(final long startPs) {
        busy = true;
        busyUntilPs = startPs + config.serializationPs(head.length + wireOverheadBytes);
        simulator.schedule(ceilNs(busyUntilPs), serializationDone, 0L);
    }

    private void onSerializationDone() {
        final FabricPacket packet = head;
        head = packet.next;
        if (head == null) {
            tail = null;
        }
        packet.next = null;

        final int wireBytes = packet.length + wireOverheadBytes;
        queueBytes -= wireBytes;
        queuedPackets--;
        packetsSent++;
        bytesSent += packet.length;
        wireBytesSent += wireBytes;

        final long arrivalNs = ceilNs(busyUntilPs + config.propagationNs() * 1000L) + packet.extraDelayNs;
        packet.extraDelayNs = 0;
        simulator.schedule(arrivalNs, packet, 0L);

        if (head != null) {
            // Back to back: the next packet starts at the exact picosecond this one ended, which may be
            // just before now, because this event was rounded up to a whole nanosecond.
            startSerialization(busyUntilPs);
        } else {
            busy = false;
        }
    }

    private static long ceilNs(final long ps) {
        return Math.floorDiv(ps + 999L, 1000L);
    }
}

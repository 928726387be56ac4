package org.mrconf.fabric;

import java.nio.ByteBuffer;
import org.mrconf.net.PacketReceiver;
import org.mrconf.net.PacketTransmitter;

/**
 * One endpoint's place in the {@link Fabric}, returned by {@link Fabric#attach(PacketReceiver)}: its node
 * id, the {@link PacketTransmitter} the endpoint sends through, its two host links, and its wake-up.
 *
 * <p>The node keeps at most one wake-up pending for its endpoint. After every call into the endpoint
 * ({@code onPacket}, {@code onWakeup}) it asks {@link PacketReceiver#nextWakeupNs()} again and, if the
 * deadline moved, cancels the pending wake-up and schedules the new one, which fires at exactly the
 * requested virtual time (or now, if that time has passed). Code that calls the endpoint from outside a
 * fabric callback (a test posting work) must call {@link #wakeupChanged()} afterwards; a transmit from
 * outside a callback does this by itself, at the current time, after the caller returns.
 */
public final class FabricNode implements PacketTransmitter {
    private static final long WAKEUP = 0L;
    private static final long REQUERY = 1L;
    /** Wake-ups at one instant beyond this mean an endpoint that never clears its deadline. */
    private static final int MAX_WAKEUPS_AT_ONE_INSTANT = 1_000_000;

    private final Fabric fabric;
    private final Simulator simulator;
    private final int id;
    private final PacketReceiver endpoint;
    private final Link uplink;
    private final Link downlink;
    private final EventHandler wakeupHandler = this::onWakeupEvent;

    private long wakeupDeadlineNs = Long.MAX_VALUE;
    private long wakeupHandle = Simulator.NO_EVENT;
    private boolean requeryPending;
    private int callbackDepth;
    private long lastWakeupNs = Long.MIN_VALUE;
    private int wakeupsAtLastInstant;

    private long packetsSent;
    private long bytesSent;
    private long packetsDelivered;
    private long bytesDelivered;
    private long wakeups;

    FabricNode(
            final Fabric fabric, final int id, final PacketReceiver endpoint, final Link uplink, final Link downlink) {
        this.fabric = fabric;
        this.simulator = fabric.simulator();
        this.id = id;
        this.endpoint = endpoint;
        this.uplink = uplink;
        this.downlink = downlink;
    }

    /** The node id other nodes send to. */
    public int id() {
        return id;
    }

    /** The transmitter for this node's endpoint: this node. */
    public PacketTransmitter transmitter() {
        return this;
    }

    public PacketReceiver endpoint() {
        return endpoint;
    }

    /** The host-to-fabric link. */
    public Link uplink() {
        return uplink;
    }

    /** The fabric-to-host link. */
    public Link downlink() {
        return downlink;
    }

    /** Packets the endpoint handed to the fabric. */
    public long packetsSent() {
        return packetsSent;
    }

    /** Payload bytes the endpoint handed to the fabric. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Packets delivered to the endpoint. */
    public long packetsDelivered() {
        return packetsDelivered;
    }

    /** Payload bytes delivered to the endpoint. */
    public long bytesDelivered() {
        return bytesDelivered;
    }

    /** How many times the endpoint's {@code onWakeup} was called. */
    public long wakeups() {
        return wakeups;
    }

    /** The wake-up deadline now pending, or {@link Long#MAX_VALUE} for none. */
    public long wakeupDeadlineNs() {
        return wakeupDeadlineNs;
    }

    /**
     * Re-reads the endpoint's {@link PacketReceiver#nextWakeupNs()} and reschedules its wake-up. Call it
     * after calling the endpoint from outside a fabric callback.
     */
    public void wakeupChanged() {
        requery(simulator.nowNs());
    }

    /**
     * Sends a packet into the fabric through this node's uplink; the fabric copies the bytes before
     * returning. Called by the endpoint on its send path.
     *
     * @throws IllegalArgumentException for an unknown or own destination, a length above
     *                                  {@link FabricConfig#maxPacketBytes()} or an ECN value outside 0..3
     */
    @Override
    public void transmit(
            final int dstNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length) {
        final long nowNs = simulator.nowNs();
        packetsSent++;
        bytesSent += length;
        fabric.inject(this, dstNode, srcPort, ecn, buffer, offset, length, nowNs);
        if (callbackDepth == 0 && !requeryPending) {
            // Sent from outside a callback: the endpoint's deadline has probably changed too, but only
            // once the caller returns, so look again at the same instant, after it.
            requeryPending = true;
            simulator.schedule(nowNs, wakeupHandler, REQUERY);
        }
    }

    @Override
    public String toString() {
        return "FabricNode{id=" + id + ", endpoint=" + endpoint + '}';
    }

    /** Hands a packet that crossed the downlink to the endpoint: called by {@link Fabric}. */
    void deliver(final FabricPacket packet, final long nowNs) {
        packetsDelivered++;
        bytesDelivered += packet.length;
        fabric.tap(nowNs, TapEvent.DELIVERED, downlink, packet);
        final ByteBuffer buffer = packet.writable;
        buffer.clear();
        buffer.limit(packet.length);
        callbackDepth++;
        try {
            endpoint.onPacket(packet.srcNode, packet.srcPort, packet.ecn, buffer, 0, packet.length, nowNs);
        } finally {
            callbackDepth--;
        }
        requery(nowNs);
    }

    /** Schedules the first wake-up: called by {@link Fabric#attach}. */
    void start() {
        requery(simulator.nowNs());
    }

    private void onWakeupEvent(final long nowNs, final long kind) {
        if (kind == REQUERY) {
            requeryPending = false;
            requery(nowNs);
            return;
        }
        wakeupHandle = Simulator.NO_EVENT;
        wakeupDeadlineNs = Long.MAX_VALUE;
        checkNotSpinning(nowNs);
        wakeups++;
        callbackDepth++;
        try {
            endpoint.onWakeup(nowNs);
        } finally {
            callbackDepth--;
        }
        requery(nowNs);
    }

    private void requery(final long nowNs) {
        final long deadlineNs = endpoint.nextWakeupNs();
        if (deadlineNs == wakeupDeadlineNs) {
            return;
        }
        if (wakeupHandle != Simulator.NO_EVENT) {
            simulator.cancel(wakeupHandle);
            wakeupHandle = Simulator.NO_EVENT;
        }
        wakeupDeadlineNs = deadlineNs;
        if (deadlineNs != Long.MAX_VALUE) {
            wakeupHandle = simulator.schedule(Math.max(deadlineNs, nowNs), wakeupHandler, WAKEUP);
        }
    }

    private void checkNotSpinning(final long nowNs) {
        if (nowNs != lastWakeupNs) {
            lastWakeupNs = nowNs;
            wakeupsAtLastInstant = 0;
        } else if (++wakeupsAtLastInstant > MAX_WAKEUPS_AT_ONE_INSTANT) {
            throw new IllegalStateException("endpoint of node " + id + " asked for over " + MAX_WAKEUPS_AT_ONE_INSTANT
                    + " wake-ups at " + nowNs + " ns: does onWakeup clear its deadline?");
        }
    }
}

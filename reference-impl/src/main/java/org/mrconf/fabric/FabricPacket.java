package org.mrconf.fabric;

import java.nio.ByteBuffer;

/**
 * One packet in flight: a pooled copy of what a node transmitted, so the sender may reuse its buffer at
 * once. It is in exactly one place at a time (a link queue, on the wire as a scheduled arrival, or
 * being delivered), so it doubles as its own arrival event and the {@code next} field as the link
 * queue's intrusive list. Owned and recycled by {@link Fabric}.
 */
final class FabricPacket implements PacketView, EventHandler {
    static final int HOP_UPLINK = 0;
    static final int HOP_ROUTE = 1;
    static final int HOP_DOWNLINK = 2;

    final byte[] data;
    final ByteBuffer writable;
    private final ByteBuffer readOnly;
    private final Fabric fabric;

    int srcNode;
    int dstNode;
    int srcPort;
    int ecn;
    int routeIndex;
    int length;
    /** The link the packet is on or arriving from, one of the {@code HOP_*} constants. */
    int hop;
    /** Jitter an impairment added, taken when the packet leaves the current link. */
    long extraDelayNs;

    FabricPacket next;

    FabricPacket(final Fabric fabric, final int capacity) {
        this.fabric = fabric;
        this.data = new byte[capacity];
        this.writable = ByteBuffer.wrap(data);
        this.readOnly = writable.asReadOnlyBuffer();
    }

    /** The packet has finished crossing a link's wire; the fabric moves it to the next hop. */
    @Override
    public void onEvent(final long nowNs, final long arg) {
        fabric.onHopComplete(this, nowNs);
    }

    void copyFrom(final FabricPacket other) {
        srcNode = other.srcNode;
        dstNode = other.dstNode;
        srcPort = other.srcPort;
        ecn = other.ecn;
        routeIndex = other.routeIndex;
        length = other.length;
        hop = other.hop;
        extraDelayNs = other.extraDelayNs;
        System.arraycopy(other.data, 0, data, 0, other.length);
    }

    @Override
    public int srcNode() {
        return srcNode;
    }

    @Override
    public int dstNode() {
        return dstNode;
    }

    @Override
    public int srcPort() {
        return srcPort;
    }

    @Override
    public int ecn() {
        return ecn;
    }

    @Override
    public int routeIndex() {
        return routeIndex;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public ByteBuffer buffer() {
        readOnly.clear();
        readOnly.limit(length);
        return readOnly;
    }

    @Override
    public String toString() {
        return "FabricPacket{" + srcNode + ':' + srcPort + "->" + dstNode + " route=" + routeIndex + " ecn=" + ecn
                + " length=" + length + '}';
    }
}

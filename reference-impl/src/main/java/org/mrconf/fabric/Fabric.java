package org.mrconf.fabric;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.mrconf.net.PacketReceiver;

/**
 * A simulated data-centre fabric on a {@link Simulator}. Each attached node has an uplink into the
 * fabric and a downlink out of it, and every ordered pair of nodes is joined by
 * {@link FabricConfig#routeCount()} parallel routes. A packet goes sender uplink, then the route the
 * {@link RouteSelector} picks from its UDP source port, then the receiver's downlink, each a
 * {@link Link} with its own impairment, queue, serialiser and propagation delay, and is then handed to
 * the receiving endpoint's {@link PacketReceiver#onPacket}.
 *
 * <p>Tests and benchmarks build one, attach endpoints, set impairments on links, and run the simulator.
 * Packets in flight are pooled copies, so a steady-state run allocates nothing per packet.
 */
public final class Fabric {
    private final Simulator simulator;
    private final FabricConfig config;
    private final RouteSelector routeSelector;
    private final int routeCount;
    private final PacketFate fate = new PacketFate();
    private final List<Link> links = new ArrayList<>();
    private final List<FabricNode> nodes = new ArrayList<>();

    /** routes[src][dst][routeIndex]; grown as nodes attach. */
    private Link[][][] routes = new Link[0][][];

    private FabricPacket freePackets;
    private long packetsAllocated;
    private long packetsInFlight;
    private PacketTap tap;

    public Fabric(final Simulator simulator, final FabricConfig config) {
        if (simulator == null || config == null) {
            throw new NullPointerException("simulator and config are required");
        }
        this.simulator = simulator;
        this.config = config;
        this.routeSelector = config.routeSelector();
        this.routeCount = config.routeCount();
    }

    public Simulator simulator() {
        return simulator;
    }

    public FabricConfig config() {
        return config;
    }

    /**
     * Adds a node for {@code endpoint}, with its uplink, downlink and routes to and from every existing
     * node, and schedules the endpoint's first wake-up if it wants one. Node ids count from 0.
     *
     * @return the node, which gives its id and the endpoint's transmitter
     */
    public FabricNode attach(final PacketReceiver endpoint) {
        if (endpoint == null) {
            throw new NullPointerException("endpoint");
        }
        final int id = nodes.size();
        final Link uplink = newLink(Link.Kind.UPLINK, id, -1, -1, config.uplink());
        final Link downlink = newLink(Link.Kind.DOWNLINK, -1, id, -1, config.downlink());
        final FabricNode node = new FabricNode(this, id, endpoint, uplink, downlink);
        nodes.add(node);

        final Link[][][] grown = new Link[id + 1][][];
        for (int src = 0; src < id; src++) {
            grown[src] = Arrays.copyOf(routes[src], id + 1);
        }
        grown[id] = new Link[id + 1][];
        routes = grown;
        for (int other = 0; other < id; other++) {
            routes[id][other] = newRoutes(id, other);
            routes[other][id] = newRoutes(other, id);
        }
        node.start();
        return node;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public FabricNode node(final int id) {
        return nodes.get(id);
    }

    /** The uplink of {@code node}. */
    public Link uplink(final int node) {
        return nodes.get(node).uplink();
    }

    /** The downlink of {@code node}. */
    public Link downlink(final int node) {
        return nodes.get(node).downlink();
    }

    /** Route {@code routeIndex} from {@code srcNode} to {@code dstNode} (one direction only). */
    public Link route(final int srcNode, final int dstNode, final int routeIndex) {
        checkPair(srcNode, dstNode);
        if (routeIndex < 0 || routeIndex >= routeCount) {
            throw new IndexOutOfBoundsException("routeIndex=" + routeIndex + " routeCount=" + routeCount);
        }
        return routes[srcNode][dstNode][routeIndex];
    }

    /** The route a packet from {@code srcNode} to {@code dstNode} with this source port takes. */
    public int routeIndexFor(final int srcNode, final int dstNode, final int srcPort) {
        final int routeIndex = routeSelector.select(srcNode, dstNode, srcPort, routeCount);
        if (routeIndex < 0 || routeIndex >= routeCount) {
            throw new IllegalStateException("route selector returned " + routeIndex + " for " + routeCount + " routes");
        }
        return routeIndex;
    }

    /** Every link with index {@code routeIndex}, all pairs and both directions: one spine, say. */
    public List<Link> routeLinks(final int routeIndex) {
        final List<Link> result = new ArrayList<>();
        for (final Link link : links) {
            if (link.kind() == Link.Kind.ROUTE && link.routeIndex() == routeIndex) {
                result.add(link);
            }
        }
        return result;
    }

    /** Every link, in creation order. */
    public List<Link> links() {
        return Collections.unmodifiableList(links);
    }

    /** Sets {@code link}'s impairment at virtual time {@code atNs}: a route failing, then healing. */
    public void scheduleImpairment(final long atNs, final Link link, final LinkImpairment impairment) {
        if (link == null || impairment == null) {
            throw new NullPointerException("link and impairment are required");
        }
        simulator.schedule(atNs, () -> link.impairment(impairment));
    }

    /** Reports every packet event to {@code tap}, or to nobody for {@code null}. */
    public void tap(final PacketTap tap) {
        this.tap = tap;
    }

    /** Packets queued or on the wire right now. */
    public long packetsInFlight() {
        return packetsInFlight;
    }

    /** Packet buffers ever allocated: stays flat in a steady state because they are pooled. */
    public long packetsAllocated() {
        return packetsAllocated;
    }

    @Override
    public String toString() {
        return "Fabric{nodes=" + nodes.size() + ", routes=" + routeCount + ", inFlight=" + packetsInFlight + '}';
    }

    void inject(
            final FabricNode from,
            final int dstNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final long nowNs) {
        final int srcNode = from.id();
        checkPair(srcNode, dstNode);
        if (length < 0 || length > config.maxPacketBytes()) {
            throw new IllegalArgumentException("length=" + length + " maxPacketBytes=" + config.maxPacketBytes());
        }
        if (ecn < 0 || ecn > 3) {
            throw new IllegalArgumentException("ecn=" + ecn + " must be 0..3");
        }
        final FabricPacket packet = acquire();
        packet.srcNode = srcNode;
        packet.dstNode = dstNode;
        packet.srcPort = srcPort;
        packet.ecn = ecn;
        packet.length = length;
        packet.routeIndex = routeIndexFor(srcNode, dstNode, srcPort);
        packet.hop = FabricPacket.HOP_UPLINK;
        packet.extraDelayNs = 0;
        buffer.get(offset, packet.data, 0, length);
        tap(nowNs, TapEvent.SENT, from.uplink(), packet);
        from.uplink().offer(packet, nowNs);
    }

    /** A packet has crossed a link's wire: on to the next link, or to the endpoint. */
    void onHopComplete(final FabricPacket packet, final long nowNs) {
        switch (packet.hop) {
            case FabricPacket.HOP_UPLINK -> {
                packet.hop = FabricPacket.HOP_ROUTE;
                routes[packet.srcNode][packet.dstNode][packet.routeIndex].offer(packet, nowNs);
            }
            case FabricPacket.HOP_ROUTE -> {
                packet.hop = FabricPacket.HOP_DOWNLINK;
                nodes.get(packet.dstNode).downlink().offer(packet, nowNs);
            }
            default -> {
                try {
                    nodes.get(packet.dstNode).deliver(packet, nowNs);
                } finally {
                    release(packet);
                }
            }
        }
    }

    PacketFate fate() {
        return fate;
    }

    void tap(final long nowNs, final TapEvent event, final Link link, final FabricPacket packet) {
        if (tap != null) {
            tap.onPacket(nowNs, event, link, packet);
        }
    }

    FabricPacket copyOf(final FabricPacket original) {
        final FabricPacket copy = acquire();
        copy.copyFrom(original);
        return copy;
    }

    void release(final FabricPacket packet) {
        packetsInFlight--;
        packet.next = freePackets;
        freePackets = packet;
    }

    private FabricPacket acquire() {
        packetsInFlight++;
        final FabricPacket packet = freePackets;
        if (packet == null) {
            packetsAllocated++;
            return new FabricPacket(this, config.maxPacketBytes());
        }
        freePackets = packet.next;
        packet.next = null;
        return packet;
    }

    private Link[] newRoutes(final int srcNode, final int dstNode) {
        final Link[] result = new Link[routeCount];
        for (int r = 0; r < routeCount; r++) {
            result[r] = newLink(Link.Kind.ROUTE, srcNode, dstNode, r, config.route());
        }
        return result;
    }

    private Link newLink(
            final Link.Kind kind,
            final int srcNode,
            final int dstNode,
            final int routeIndex,
            final LinkConfig linkConfig) {
        final Link link = new Link(this, links.size(), kind, srcNode, dstNode, routeIndex, linkConfig);
        links.add(link);
        return link;
    }

    private void checkPair(final int srcNode, final int dstNode) {
        final int count = nodes.size();
        if (srcNode < 0 || srcNode >= count || dstNode < 0 || dstNode >= count) {
            throw new IllegalArgumentException("srcNode=" + srcNode + " dstNode=" + dstNode + " nodeCount=" + count);
        }
        if (srcNode == dstNode) {
            throw new IllegalArgumentException("node " + srcNode + " cannot send to itself through the fabric");
        }
    }
}

package org.mrconf.fabric;

/**
 * The shape of a {@link Fabric}: how many parallel routes join each pair of nodes, the properties of
 * each kind of link, the per-packet wire overhead, and the seed. Build one with {@link #builder()}.
 *
 * @param routeCount        parallel routes (core links) between every ordered pair of nodes
 * @param uplink            each node's host-to-fabric link (its NIC transmit queue)
 * @param route             each core link; change one route later with {@link Link#configure}
 * @param downlink          each node's fabric-to-host link (the last-hop switch port, where incast queues)
 * @param wireOverheadBytes bytes added to each UDP payload for serialisation and queue occupancy
 * @param maxPacketBytes    the largest UDP payload the fabric accepts
 * @param routeSelector     picks a route from the source port
 * @param seed              the fabric's seed; {@link #seedFor(long)} derives seeds for impairments
 */
public record FabricConfig(
        int routeCount,
        LinkConfig uplink,
        LinkConfig route,
        LinkConfig downlink,
        int wireOverheadBytes,
        int maxPacketBytes,
        RouteSelector routeSelector,
        long seed) {

    /** Four parallel routes. */
    public static final int DEFAULT_ROUTE_COUNT = 4;
    /**
     * 78 bytes of framing per packet: Ethernet header and FCS, preamble and inter-frame gap, IP and UDP
     * headers. Set it to match the framing being modelled (untagged IPv4 is 66, IPv6 86).
     */
    public static final int DEFAULT_WIRE_OVERHEAD_BYTES = 78;
    /** The largest UDP payload there is, so the largest {@link #maxPacketBytes()}. */
    public static final int MAX_UDP_PAYLOAD_BYTES = 65_535;
    /** 9216 bytes, a jumbo frame's payload. */
    public static final int DEFAULT_MAX_PACKET_BYTES = 9216;
    /**
     * The default uplink: a NIC transmit queue holds what the host hands it rather than dropping or
     * marking it, so it is deep (64 MiB) and never marks.
     */
    public static final LinkConfig DEFAULT_UPLINK =
            LinkConfig.DEFAULT.withQueueCapacityBytes(64 << 20).withEcnThresholdBytes(LinkConfig.NEVER_MARK);

    public FabricConfig {
        if (routeCount <= 0) {
            throw new IllegalArgumentException("routeCount=" + routeCount + " must be positive");
        }
        if (wireOverheadBytes < 0) {
            throw new IllegalArgumentException("wireOverheadBytes=" + wireOverheadBytes + " must not be negative");
        }
        if (maxPacketBytes <= 0 || maxPacketBytes > MAX_UDP_PAYLOAD_BYTES) {
            throw new IllegalArgumentException(
                    "maxPacketBytes=" + maxPacketBytes + " must be in 1.." + MAX_UDP_PAYLOAD_BYTES);
        }
        if (uplink == null || route == null || downlink == null || routeSelector == null) {
            throw new NullPointerException("uplink, route, downlink and routeSelector are required");
        }
    }

    /** The defaults: 4 routes, 100 Gbit/s everywhere, 78 bytes overhead, modulo routing, seed 1. */
    public static FabricConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A seed for component {@code salt} (an impairment, a flow), derived from the fabric's seed. */
    public long seedFor(final long salt) {
        return SeededRandom.derive(seed, salt);
    }

    /** Collects a {@link FabricConfig}; every setter is optional. */
    public static final class Builder {
        private int routeCount = DEFAULT_ROUTE_COUNT;
        private LinkConfig uplink = DEFAULT_UPLINK;
        private LinkConfig route = LinkConfig.DEFAULT;
        private LinkConfig downlink = LinkConfig.DEFAULT;
        private int wireOverheadBytes = DEFAULT_WIRE_OVERHEAD_BYTES;
        private int maxPacketBytes = DEFAULT_MAX_PACKET_BYTES;
        private RouteSelector routeSelector = RouteSelector.MODULO;
        private boolean hashRouting;
        private long seed = 1L;

        private Builder() {}

        public Builder routeCount(final int value) {
            routeCount = value;
            return this;
        }

        public Builder uplink(final LinkConfig value) {
            uplink = value;
            return this;
        }

        public Builder route(final LinkConfig value) {
            route = value;
            return this;
        }

        public Builder downlink(final LinkConfig value) {
            downlink = value;
            return this;
        }

        /** Sets the uplink, every route and the downlink to {@code value}. */
        public Builder allLinks(final LinkConfig value) {
            uplink = value;
            route = value;
            downlink = value;
            return this;
        }

        public Builder wireOverheadBytes(final int value) {
            wireOverheadBytes = value;
            return this;
        }

        public Builder maxPacketBytes(final int value) {
            maxPacketBytes = value;
            return this;
        }

        public Builder routeSelector(final RouteSelector value) {
            routeSelector = value;
            hashRouting = false;
            return this;
        }

        /** Uses {@link RouteSelector#hash(long)} seeded from the fabric seed (set the seed first or later). */
        public Builder hashRouting() {
            hashRouting = true;
            return this;
        }

        public Builder seed(final long value) {
            seed = value;
            return this;
        }

        public FabricConfig build() {
            final RouteSelector selector =
                    hashRouting ? RouteSelector.hash(SeededRandom.derive(seed, -1)) : routeSelector;
            return new FabricConfig(
                    routeCount, uplink, route, downlink, wireOverheadBytes, maxPacketBytes, selector, seed);
        }
    }
}

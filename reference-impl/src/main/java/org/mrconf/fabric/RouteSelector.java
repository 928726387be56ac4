package org.mrconf.fabric;

/**
 * Chooses which of the parallel routes between two nodes a packet takes, as an ECMP switch does from
 * the packet's headers. The UDP source port is the only field a transport varies, so it is the path's
 * entropy. Called by {@link Fabric} once per packet as it leaves the sender's uplink; must be a pure
 * function of its arguments, so one flow always takes one route.
 */
@FunctionalInterface
public interface RouteSelector {
    /**
     * {@code srcPort % routeCount}, the default: consecutive ports land on distinct routes, so a test
     * can aim a packet at a route.
     */
    RouteSelector MODULO = (srcNode, dstNode, srcPort, routeCount) -> Math.floorMod(srcPort, routeCount);

    /**
     * A seeded hash of (source node, destination node, source port), like a real ECMP hash over the
     * 5-tuple: ports spread evenly but unpredictably, and collisions happen as they do in practice.
     */
    static RouteSelector hash(final long seed) {
        return (srcNode, dstNode, srcPort, routeCount) -> {
            final long key = ((long) srcNode << 48) ^ ((long) dstNode << 24) ^ (srcPort & 0xFFFFFFL);
            final long h = SeededRandom.mix(key ^ SeededRandom.mix(seed));
            return (int) Long.remainderUnsigned(h, routeCount);
        };
    }

    /**
     * The route for a packet.
     *
     * @return an index in {@code [0, routeCount)}
     */
    int select(int srcNode, int dstNode, int srcPort, int routeCount);
}

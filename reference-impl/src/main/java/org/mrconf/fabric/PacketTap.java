package org.mrconf.fabric;

/**
 * Watches every packet event in a {@link Fabric}, in simulation order: a trace for debugging, a digest
 * for determinism checks ({@link TapDigest}), or a pcap writer. Set with {@link Fabric#tap(PacketTap)}.
 */
@FunctionalInterface
public interface PacketTap {
    /**
     * One event.
     *
     * @param nowNs  the virtual time
     * @param event  what happened
     * @param link   where it happened
     * @param packet the packet, valid only during the call
     */
    void onPacket(long nowNs, TapEvent event, Link link, PacketView packet);
}

package org.mrconf.softdut;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.mrconf.agent.PeerDirectory;

/**
 * The soft DUT's peers: one node id per peer IP address (peers are told apart by source address only,
 * the source port being entropy, spec clause 4.1.4), each with the UDP port its connections send to.
 * A peer is forgotten when its last connection goes, so the table holds only peers in use (a client
 * creating and destroying connections to ever new addresses cannot grow it, and {@code reset} empties
 * it). Used on the loop thread only.
 */
final class SocketPeers implements PeerDirectory {
    private static final class Peer {
        final int node;
        final InetAddress address;
        InetSocketAddress destination;
        /** Where the defect {@code answer-to-source-port} sends instead: the last source port heard from. */
        InetSocketAddress lastHeardFrom;

        int connections;

        Peer(final int node, final InetAddress address) {
            this.node = node;
            this.address = address;
        }
    }

    private final Map<InetAddress, Peer> byAddress = new HashMap<>();
    private final Map<Integer, Peer> byNode = new HashMap<>();
    /** The family every peer must have, or null for any (in memory). */
    private final Class<? extends InetAddress> family;

    private final IntUnaryOperator sourcePort;
    private int nextNode = 1;
    /** Defect {@link org.mrconf.defect.Defect#ANSWER_TO_SOURCE_PORT}: off unless the loop turns it on. */
    private boolean answerToSourcePort;
    /** Defect {@link org.mrconf.defect.Defect#SECOND_PEER_PORT_IGNORED}: off unless the loop turns it on. */
    private boolean secondPortIgnored;

    SocketPeers(final Class<? extends InetAddress> family, final IntUnaryOperator sourcePort) {
        this.family = family;
        this.sourcePort = sourcePort;
    }

    @Override
    public int acquire(final InetAddress address, final int port) {
        if (family != null && !family.isInstance(address)) {
            throw new IllegalArgumentException(
                    "this device sends over " + (family == Inet4Address.class ? "IPv4" : "IPv6")
                            + " only; cannot reach " + address.getHostAddress());
        }
        Peer peer = byAddress.get(address);
        if (peer == null) {
            peer = new Peer(nextNode++, address);
            byAddress.put(address, peer);
            byNode.put(peer.node, peer);
        }
        if (peer.connections > 0 && peer.destination.getPort() != port && secondPortIgnored) {
            peer.connections++; // accepted, but everything still goes to the first port
            return peer.node;
        }
        if (peer.connections > 0 && peer.destination.getPort() != port) {
            throw new IllegalStateException("connections to " + address.getHostAddress() + " already use its port "
                    + peer.destination.getPort() + "; a peer address has one MetaRoCE port");
        }
        peer.destination = new InetSocketAddress(address, port);
        peer.connections++;
        return peer.node;
    }

    @Override
    public void release(final int node) {
        final Peer peer = byNode.get(node);
        if (peer != null && peer.connections > 0) {
            peer.connections--;
        }
        if (peer != null && peer.connections == 0) {
            byNode.remove(node);
            byAddress.remove(peer.address);
        }
    }

    @Override
    public int sourcePort(final int entropy) {
        return sourcePort.applyAsInt(entropy);
    }

    /** Peers with at least one connection, for tests. */
    int size() {
        return byAddress.size();
    }

    /** The node of a received packet's source address, or {@link #UNKNOWN_NODE}. */
    int nodeOf(final InetAddress source) {
        final Peer peer = byAddress.get(source);
        return peer == null ? UNKNOWN_NODE : peer.node;
    }

    /** The node of a received packet, remembering its source port when the defect needs it. */
    int nodeOf(final InetAddress source, final int port) {
        final Peer peer = byAddress.get(source);
        if (peer == null) {
            return UNKNOWN_NODE;
        }
        if (answerToSourcePort && (peer.lastHeardFrom == null || peer.lastHeardFrom.getPort() != port)) {
            peer.lastHeardFrom = new InetSocketAddress(source, port);
        }
        return peer.node;
    }

    /** Turns on the defect that answers to the source port a peer was last heard from (spec clause 4.2.3). */
    void answerToSourcePort() {
        answerToSourcePort = true;
    }

    /** Turns on the defect that accepts a second peer port for an address and ignores it (spec clause 4.2.3). */
    void ignoreSecondPeerPort() {
        secondPortIgnored = true;
    }

    /** Where packets for {@code node} go, or null for a node nobody acquired. */
    InetSocketAddress destination(final int node) {
        final Peer peer = byNode.get(node);
        if (peer == null) {
            return null;
        }
        return answerToSourcePort && peer.lastHeardFrom != null ? peer.lastHeardFrom : peer.destination;
    }
}

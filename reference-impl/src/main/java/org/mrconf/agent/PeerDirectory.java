package org.mrconf.agent;

import java.net.InetAddress;

/**
 * The runtime's map from peer addresses to the node ids the {@link org.mrconf.transport.Endpoint} knows
 * peers by. The agent acquires a node when it creates a connection and releases it when it destroys one;
 * the runtime uses the same map to tag received packets (by source IP only: the UDP source port is
 * entropy, spec clause 4.1.4) and to address sent ones. Called on the endpoint's thread only.
 */
public interface PeerDirectory {
    /** A node id no connection uses: what the runtime passes for packets from unknown addresses. */
    int UNKNOWN_NODE = -1;

    /**
     * The node for the MetaRoCE endpoint at {@code address}, which listens on UDP {@code port}; one more
     * connection now uses it.
     *
     * @throws IllegalArgumentException if the runtime cannot reach that address (e.g. another IP family)
     * @throws IllegalStateException    if live connections already reach that address on another port
     */
    int acquire(InetAddress address, int port);

    /** One connection that {@link #acquire acquired} {@code node} no longer uses it. */
    void release(int node);

    /**
     * The UDP source port that packets sent with this entropy leave from. The identity unless the runtime
     * can only send from a few ports (the soft DUT maps entropy onto its source sockets).
     */
    default int sourcePort(final int entropy) {
        return entropy;
    }
}

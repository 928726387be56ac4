package org.mrconf.agent;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A {@link PeerDirectory} for agent tests: one node per address, counting users. */
class MapPeers implements PeerDirectory {
    final Map<InetAddress, Integer> nodes = new HashMap<>();
    final Map<Integer, Integer> users = new HashMap<>();
    /** The peer port of every acquisition, in order. */
    final List<Integer> ports = new ArrayList<>();

    @Override
    public int acquire(final InetAddress address, final int port) {
        ports.add(port);
        final int node = nodes.computeIfAbsent(address, a -> nodes.size() + 1);
        users.merge(node, 1, Integer::sum);
        return node;
    }

    @Override
    public void release(final int node) {
        users.merge(node, -1, Integer::sum);
    }

    /** Acquisitions not yet released, over all nodes. */
    int inUse() {
        return users.values().stream().mapToInt(Integer::intValue).sum();
    }
}

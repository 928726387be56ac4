package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Chooses the UDP source port (the entropy) of each packet the tester peer sends. The spec lets a sender change a
 * path's entropy at any time and obliges the receiver to ignore it (clause 4.1.4), so tests spray packets over
 * several ports to check exactly that.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface EntropyPlan {
    /**
     * @param pathId   the path id in the packet's header
     * @param sequence the packet's position among all packets the peer has sent, from 0
     * @return a UDP source port, 1 to 65535
     */
    int sourcePort(int pathId, long sequence);

    /** One port for everything. */
    static EntropyPlan fixed(int port) {
        check(port);
        return (path, sequence) -> port;
    }

    /** Round-robin over {@code ports} by packet, whatever the path. */
    static EntropyPlan spray(List<Integer> ports) {
        List<Integer> copy = checked(ports);
        return (path, sequence) -> copy.get((int) Math.floorMod(sequence, (long) copy.size()));
    }

    /** Path i uses {@code ports.get(i mod size)}: one stable entropy per path, as a well-behaved sender does. */
    static EntropyPlan perPath(List<Integer> ports) {
        List<Integer> copy = checked(ports);
        return (path, sequence) -> copy.get(Math.floorMod(path, copy.size()));
    }

    private static List<Integer> checked(List<Integer> ports) {
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("at least one port");
        }
        ports.forEach(EntropyPlan::check);
        return List.copyOf(ports);
    }

    private static void check(int port) {
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("UDP source port must be 1 to 65535: " + port);
        }
    }
}

package org.mrconf.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.mrconf.defect.Defect;
import org.mrconf.transport.ConnectionConfig;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.PathStatus;
import org.mrconf.wire.WireConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections the agent created ({@code create_connection}, {@code destroy_connection}, {@code path_status}):
 * checks each request against the declared limits (connections and paths at once), maps the peer through the
 * runtime's {@link PeerDirectory} and releases it again, and logs each connection that fails once.
 */
final class ConnectionTable {
    /** Source port of path 0 of every connection before the runtime maps it; path i starts at base + i. */
    static final int ENTROPY_BASE = 49152;

    // Under the agent's name, so operators' log settings for the control agent still cover these lines.
    private static final Logger LOG = LoggerFactory.getLogger(ControlAgent.class);

    /** A connection the agent created, with what it needs to check requests and to clean up. */
    record Entry(int localId, int node, InetAddress peerAddress, int peerPort, int paths, int streams) {}

    private final Endpoint endpoint;
    private final PeerDirectory peers;
    private final AgentConfig config;
    private final Map<Integer, Entry> connections = new LinkedHashMap<>();
    private final Set<Integer> failedLogged = new HashSet<>();
    private int pathsInUse;
    private long connectionsFailedSeen;

    ConnectionTable(final Endpoint endpoint, final PeerDirectory peers, final AgentConfig config) {
        this.endpoint = endpoint;
        this.peers = peers;
        this.config = config;
    }

    /**
     * Spec clause 4.2.3: every packet of the connection leaves from the local address given at setup. This device
     * sends from the one address it receives on (the one {@code hello} reports), so it can honour only that one and
     * refuses any other, as 4.2.1 says a device that cannot honour a value must.
     */
    private void checkLocalAddress(final InetAddress local) {
        if (endpoint.config().defects().has(Defect.LOCAL_ADDRESS_UNCHECKED)) {
            return; // the defect: any address is taken, and packets still leave from the device's own
        }
        for (final String own : config.addresses()) {
            if (local.equals(Args.parseIpLiteral(own))) {
                return;
            }
        }
        throw RequestError.invalidArgument(
                "args.localAddress",
                local.getHostAddress() + " is not an address of this device, which sends from " + config.addresses());
    }

    /** {@code create_connection}. */
    ObjectNode create(final Args args) {
        final int localId = (int) args.u32("localId");
        final int peerId = (int) args.u32("peerId");
        final InetAddress peerAddress = args.ipLiteral("peerAddress");
        // Optional, default 4796 (spec clause 4.2.1 and the control document give the same default).
        final int requestedPort = (int) args.integer("peerPort", 1, 65535, WireConstants.DEFAULT_UDP_PORT);
        // Defect SEND_TO_DEFAULT_PORT: the device ignores the peer's port and sends to the default one.
        final int peerPort = endpoint.config().defects().has(Defect.SEND_TO_DEFAULT_PORT)
                ? WireConstants.DEFAULT_UDP_PORT
                : requestedPort;
        if (args.has("localAddress")) {
            checkLocalAddress(args.ipLiteral("localAddress"));
        }
        final int paths = (int) args.integer("paths", 1, 256);
        final int streams = (int) args.integer("streams", 1, 65536);
        final long initialSendPsn = args.integer("initialSendPsn", 0, Args.U32_MAX, 0);
        final long initialReceivePsn = args.integer("initialReceivePsn", 0, Args.U32_MAX, 0);
        final long mtu = args.integer("mtu", 1, 65535, endpoint.config().mtuBytes());
        final long peerMaxOutstandingMessages = args.integer(
                "peerMaxOutstandingMessages", 1, ConnectionConfig.NO_MESSAGE_LIMIT, ConnectionConfig.NO_MESSAGE_LIMIT);
        if (mtu != endpoint.config().mtuBytes()) {
            // Spec 0.2 clause 4.2.1: the MTU is a connection parameter; this device supports one.
            throw RequestError.invalidArgument(
                    "args.mtu",
                    "this device supports only MTU " + endpoint.config().mtuBytes() + ", not " + mtu);
        }
        checkRoomFor(localId, paths);
        final int node;
        try {
            node = peers.acquire(peerAddress, peerPort);
        } catch (final IllegalArgumentException e) {
            throw RequestError.invalidArgument("args.peerAddress", e.getMessage());
        } catch (final IllegalStateException e) {
            throw RequestError.conflict("args.peerPort", e.getMessage());
        }
        try {
            endpoint.createConnection(new ConnectionConfig(
                    localId,
                    peerId,
                    node,
                    paths,
                    streams,
                    initialSendPsn,
                    initialReceivePsn,
                    ENTROPY_BASE,
                    peerMaxOutstandingMessages));
        } catch (final RuntimeException e) {
            peers.release(node);
            throw e;
        }
        connections.put(localId, new Entry(localId, node, peerAddress, peerPort, paths, streams));
        pathsInUse += paths;
        LOG.info(
                "connection {} created: peer {} port {} connection {}, {} paths, {} streams",
                Integer.toUnsignedString(localId),
                peerAddress.getHostAddress(),
                peerPort,
                Integer.toUnsignedString(peerId),
                paths,
                streams);
        final ObjectNode result = Envelope.JSON.objectNode();
        result.put("localId", Integer.toUnsignedLong(localId));
        final ArrayNode entropy = result.putArray("entropy");
        for (int p = 0; p < paths; p++) {
            entropy.add(peers.sourcePort(ENTROPY_BASE + p));
        }
        return result;
    }

    /** {@code destroy_connection}. */
    ObjectNode destroy(final Args args) {
        destroy(get(args, "localId"));
        return Envelope.JSON.objectNode();
    }

    /** {@code path_status}. */
    ObjectNode pathStatus(final Args args) {
        final Entry connection = get(args, "connection");
        final ObjectNode result = Envelope.JSON.objectNode();
        final ArrayNode paths = result.putArray("paths");
        for (int p = 0; p < connection.paths; p++) {
            final PathStatus status = endpoint.pathStatus(connection.localId, p);
            final ObjectNode json = paths.addObject();
            json.put("pathId", status.pathId());
            json.put("entropy", peers.sourcePort(status.entropy()));
            json.put("healthy", status.healthy());
            json.put("nextPsn", status.nextPsn());
            json.put("oldestUnackedPsn", status.oldestUnackedPsn());
            json.put("unacknowledged", status.unacknowledged());
            json.put("congestionWindow", status.congestionWindow());
            if (status.srttNs() >= 0) {
                // Absent until the path's first RTT sample, as the control protocol says.
                json.put("srttNs", status.srttNs());
            }
            json.put("rtoNs", status.rtoNs());
        }
        return result;
    }

    /** The connection the argument {@code name} names, or {@code not_found}. */
    Entry get(final Args args, final String name) {
        final int localId = (int) args.u32(name);
        final Entry entry = connections.get(localId);
        if (entry == null) {
            throw RequestError.notFound("args." + name, "no connection " + Integer.toUnsignedString(localId));
        }
        return entry;
    }

    /** The connection of a work request ({@code args.connection}): {@code conflict} once it has failed. */
    Entry usable(final Args args) {
        final Entry entry = get(args, "connection");
        if (!endpoint.isConnectionUp(entry.localId)) {
            throw RequestError.conflict(
                    "args.connection",
                    "connection " + Integer.toUnsignedString(entry.localId) + " has failed; destroy it");
        }
        return entry;
    }

    /** Logs each connection that failed since the last tick, once; called after every round of endpoint work. */
    void onTick() {
        final long failed = endpoint.counters().get(Counter.CONNECTIONS_FAILED);
        if (failed == connectionsFailedSeen) {
            return;
        }
        connectionsFailedSeen = failed;
        for (final Entry entry : connections.values()) {
            if (!endpoint.isConnectionUp(entry.localId) && failedLogged.add(entry.localId)) {
                LOG.warn(
                        "connection {} failed (peer {} port {}): its work completes with an error status",
                        Integer.toUnsignedString(entry.localId),
                        entry.peerAddress.getHostAddress(),
                        entry.peerPort);
            }
        }
    }

    /** Destroys every connection and releases its peer ({@code reset}). */
    void clear() {
        for (final Entry entry : List.copyOf(connections.values())) {
            destroy(entry);
        }
        failedLogged.clear();
        connectionsFailedSeen = endpoint.counters().get(Counter.CONNECTIONS_FAILED);
    }

    private void checkRoomFor(final int localId, final int paths) {
        if (connections.containsKey(localId)) {
            throw RequestError.conflict("args.localId", "connection " + Integer.toUnsignedString(localId) + " exists");
        }
        if (connections.size() >= config.maxConnections()) {
            throw RequestError.conflict(
                    "args.localId",
                    "this device serves at most " + config.maxConnections()
                            + " connections at once; destroy one first");
        }
        if (pathsInUse + paths > config.maxTotalPaths()) {
            throw RequestError.conflict(
                    "args.paths",
                    "connections would have " + (pathsInUse + paths) + " paths; this device serves at most "
                            + config.maxTotalPaths() + " at once");
        }
    }

    private void destroy(final Entry entry) {
        endpoint.destroyConnection(entry.localId);
        peers.release(entry.node);
        connections.remove(entry.localId);
        pathsInUse -= entry.paths;
        failedLogged.remove(entry.localId);
        LOG.info("connection {} destroyed", Integer.toUnsignedString(entry.localId));
    }
}

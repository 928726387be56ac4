package org.mrconf.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.ConnectionConfig;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;
import org.mrconf.transport.PathStatus;
import org.mrconf.wire.WireConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device side of the DUT control protocol (docs/dut-control-protocol.md) over one reference
 * {@link Endpoint}: parses a request line, checks it, runs the operation on the endpoint and formats the
 * response line. Every line gets exactly one response and nothing escapes as an exception.
 *
 * <p>Single-threaded like the endpoint: the runtime calls every method from the endpoint's thread. A
 * {@code poll_completions} with {@code waitMs} that finds nothing is parked: the runtime keeps calling
 * {@link #onTick} and the agent answers when a completion arrives or the wait expires, so the endpoint
 * thread never blocks.
 */
public final class ControlAgent {
    /** The protocol version this agent speaks. */
    public static final int PROTOCOL_VERSION = 1;
    /** Every operation of section 4 the agent offers, in the order the document lists them. */
    public static final List<String> OPERATIONS = List.of(
            "hello",
            "reset",
            "create_connection",
            "destroy_connection",
            "register_region",
            "invalidate_region",
            "write_region",
            "read_region",
            "post_receive",
            "post_write",
            "post_send",
            "post_read",
            "poll_completions",
            "read_counters",
            "path_status");
    /** Most bytes one {@code read_region} or {@code write_region} moves, so every line stays under 1 MiB. */
    public static final int MAX_REGION_IO_BYTES = 512 * 1024;
    /** Largest region and message (2^30 bytes). */
    public static final long MAX_MESSAGE_LENGTH = 1L << 30;
    /** Most completions one poll returns. */
    public static final int MAX_POLL = 4096;
    /** Longest a poll may wait, milliseconds. */
    public static final int MAX_WAIT_MS = 10_000;
    /** The counter names of section 5; the agent reports every other counter with an {@code x_} prefix. */
    public static final Set<String> STANDARD_COUNTERS = CounterReport.STANDARD;

    /**
     * The SHOULD and MAY clauses the reference transport implements ({@code hello}'s {@code optionalClauses}, spec
     * clause 12.1.5): tests of any other optional clause report "not applicable" for the reference.
     */
    public static final List<String> OPTIONAL_CLAUSES =
            List.of("4.1.5", "6.4.3", "8.1.6", "8.2.4", "9.1.5", "10.1.3", "10.1.5", "10.2.2");

    /** Source port of path 0 of every connection before the runtime maps it; path i starts at base + i. */
    static final int ENTROPY_BASE = 49152;

    /** The protocol's JSON settings (exact decimals, no duplicate keys, no trailing tokens). */
    static final JsonMapper MAPPER = Envelope.MAPPER;

    private static final Logger LOG = LoggerFactory.getLogger(ControlAgent.class);
    private static final JsonNodeFactory JSON = Envelope.JSON;

    /** A connection the agent created, with what it needs to check requests and to clean up. */
    private record ConnectionEntry(
            int localId, int node, InetAddress peerAddress, int peerPort, int paths, int streams) {}

    private final Endpoint endpoint;
    private final PeerDirectory peers;
    private final AgentConfig config;
    private final Map<Integer, ConnectionEntry> connections = new LinkedHashMap<>();
    private final Map<Integer, Integer> regionLengths = new LinkedHashMap<>();
    private final CompletionPoller poller;
    private final CounterReport counters;
    private final Set<Integer> failedLogged = new HashSet<>();
    private long memoryInUseBytes;
    private int pathsInUse;
    private long connectionsFailedSeen;

    /**
     * @param endpoint the device; the agent is its only user besides the runtime's network calls
     * @param peers    the runtime's address map
     */
    public ControlAgent(final Endpoint endpoint, final PeerDirectory peers, final AgentConfig config) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.peers = Objects.requireNonNull(peers, "peers");
        this.config = Objects.requireNonNull(config, "config");
        this.poller = new CompletionPoller(endpoint);
        this.counters = new CounterReport(endpoint, config.extraCounters());
    }

    // ---------------------------------------------------------------- entry points

    /**
     * Handles one request line and returns its response line at once. A {@code poll_completions} with
     * {@code waitMs} does not wait here: it answers with what is there, since only the runtime's thread
     * can make completions arrive. For tests and single-threaded use.
     */
    public String handle(final String line) {
        final String[] response = new String[1];
        handle(line, 0, false, r -> response[0] = r);
        return response[0];
    }

    /**
     * Handles one request line; {@code reply} gets the response line, during this call or, for a waiting
     * {@code poll_completions}, during a later {@link #onTick} or {@link #shutdown}. Called by the runtime on
     * the endpoint's thread.
     */
    public void handle(final String line, final long nowNs, final Consumer<String> reply) {
        handle(line, nowNs, true, reply);
    }

    /**
     * Does the agent's timed work: answers parked polls whose completion arrived or whose wait expired and
     * logs connections that failed. The runtime calls it after every round of endpoint work.
     */
    public void onTick(final long nowNs) {
        final long failed = endpoint.counters().get(Counter.CONNECTIONS_FAILED);
        if (failed != connectionsFailedSeen) {
            connectionsFailedSeen = failed;
            for (final ConnectionEntry entry : connections.values()) {
                if (!endpoint.isConnectionUp(entry.localId) && failedLogged.add(entry.localId)) {
                    LOG.warn(
                            "connection {} failed (peer {} port {}): its work completes with an error status",
                            Integer.toUnsignedString(entry.localId),
                            entry.peerAddress.getHostAddress(),
                            entry.peerPort);
                }
            }
        }
        poller.onTick(nowNs);
    }

    /** The earliest time a parked poll's wait expires, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNs() {
        return poller.nextDeadlineNs();
    }

    /** Answers every parked poll with what is there; the runtime calls it once, when it stops. */
    public void shutdown() {
        poller.answerAll();
    }

    /**
     * A response line for an error found outside the agent (by a server framing lines): {@code id} null.
     */
    public static String errorLine(final ErrorCode code, final String message) {
        return Envelope.errorResponse(NullNode.getInstance(), new RequestError(code, message, null));
    }

    // ---------------------------------------------------------------- envelope

    private void handle(final String line, final long nowNs, final boolean mayWait, final Consumer<String> reply) {
        JsonNode id = NullNode.getInstance();
        String response;
        try {
            final ObjectNode request = Envelope.parse(line);
            final JsonNode idNode = request.get("id");
            if (idNode != null && (idNode.isNumber() || idNode.isTextual())) {
                id = idNode;
            }
            // Before anything else: a client without the token learns nothing about the request's faults.
            checkToken(request.get("token"));
            Envelope.checkVersion(request.get("v"));
            if (!id.isNumber() && !id.isTextual()) {
                throw new RequestError(ErrorCode.INVALID_REQUEST, "id is required: a number or a string", "id");
            }
            final JsonNode op = request.get("op");
            if (op == null || !op.isTextual()) {
                throw new RequestError(ErrorCode.INVALID_REQUEST, "op is required: a string", "op");
            }
            final JsonNode argsNode = request.get("args");
            if (argsNode != null && !argsNode.isObject()) {
                throw new RequestError(ErrorCode.INVALID_REQUEST, "args must be an object", "args");
            }
            final Args args = new Args(argsNode == null ? JSON.objectNode() : (ObjectNode) argsNode);
            if (op.textValue().equals("poll_completions")) {
                poller.poll(id, args, nowNs, mayWait, reply);
                return;
            }
            response = Envelope.successResponse(id, dispatch(op.textValue(), args));
        } catch (final RequestError e) {
            response = Envelope.errorResponse(id, e);
        } catch (final OutOfMemoryError e) {
            response = Envelope.errorResponse(id, new RequestError(ErrorCode.INTERNAL, "out of memory", null));
        } catch (final RuntimeException | StackOverflowError e) {
            LOG.debug("request failed", e);
            response = Envelope.errorResponse(id, new RequestError(ErrorCode.INTERNAL, String.valueOf(e), null));
        }
        reply.accept(response);
    }

    private void checkToken(final JsonNode token) {
        if (config.token() == null) {
            return;
        }
        if (token == null || !token.isTextual() || !TokenPolicy.matches(config.token(), token.textValue())) {
            throw new RequestError(ErrorCode.UNAUTHORIZED, "this agent requires its token", "token");
        }
    }

    private ObjectNode dispatch(final String op, final Args args) {
        return switch (op) {
            case "hello" -> hello(args);
            case "reset" -> reset();
            case "create_connection" -> createConnection(args);
            case "destroy_connection" -> destroyConnection(args);
            case "register_region" -> registerRegion(args);
            case "invalidate_region" -> invalidateRegion(args);
            case "write_region" -> writeRegion(args);
            case "read_region" -> readRegion(args);
            case "post_receive" -> postReceive(args);
            case "post_write" -> postWrite(args);
            case "post_send" -> postSend(args);
            case "post_read" -> postRead(args);
            case "read_counters" -> counters.read();
            case "path_status" -> pathStatus(args);
            default ->
                throw new RequestError(
                        ErrorCode.UNKNOWN_OP,
                        "unknown operation '" + (op.length() > 64 ? op.substring(0, 64) + "..." : op) + "'",
                        "op");
        };
    }

    // ---------------------------------------------------------------- operations

    private ObjectNode hello(final Args args) {
        args.optionalString("client");
        if (args.has("versions")) {
            final List<Long> versions = args.integers("versions", 0, Args.WR_ID_MAX);
            if (!versions.contains((long) PROTOCOL_VERSION)) {
                throw new RequestError(
                        ErrorCode.UNSUPPORTED_VERSION,
                        "the client speaks " + versions + "; this agent speaks [" + PROTOCOL_VERSION + "]",
                        "args.versions");
            }
        }
        final EndpointConfig ec = endpoint.config();
        final ObjectNode result = JSON.objectNode();
        result.put("protocol", PROTOCOL_VERSION);
        final ObjectNode implementation = result.putObject("implementation");
        implementation.put("vendor", config.vendor());
        implementation.put("model", config.model());
        implementation.put(
                "firmware", ec.defects().has(org.mrconf.defect.Defect.HELLO_OMITS_FIRMWARE) ? "" : config.firmware());
        implementation.put("driver", config.driver());
        final ArrayNode profiles = result.putArray("profiles");
        config.profiles().forEach(profiles::add);
        // Deliberate non-conformances are always reported, so no report can pass a defect DUT off as clean.
        final ArrayNode defects = result.putArray("defects");
        ec.defects().names().forEach(defects::add);
        final ObjectNode wire = result.putObject("wire");
        wire.put("version", "1.0");
        wire.put("udpPort", config.udpPort());
        final ArrayNode addresses = wire.putArray("addresses");
        config.addresses().forEach(addresses::add);
        final ObjectNode limits = result.putObject("limits");
        limits.put("maxPaths", 256);
        limits.put("maxStreams", 65536);
        limits.put("maxMessageLength", Math.min(MAX_MESSAGE_LENGTH, config.memoryBudgetBytes()));
        limits.put("maxOutstandingMessages", ec.maxOutstandingMessages());
        limits.put("maxPostedReceives", ec.maxPostedReceives());
        // Defect HELLO_UNDERSTATES_MTU: hello claims less than the device carries (clause 12.1.2).
        limits.put("mtu", ec.mtuBytes() - (ec.defects().has(org.mrconf.defect.Defect.HELLO_UNDERSTATES_MTU) ? 512 : 0));
        limits.put("maxConnections", config.maxConnections());
        limits.put("maxTotalPaths", config.maxTotalPaths());
        final ObjectNode parameters = result.putObject("parameters");
        parameters.put("minRtoNs", ec.minRtoNs());
        parameters.put("initialRtoNs", ec.initialRtoNs());
        parameters.put("maxRtoNs", ec.maxRtoNs());
        parameters.put("ackDelayNs", ec.ackDelayNs());
        parameters.put("ackCoalescingCount", ec.ackCoalescingCount());
        parameters.put("unhealthyAfterTimeouts", ec.unhealthyAfterTimeouts());
        parameters.put("connectionTimeoutNs", ec.connectionTimeoutNs());
        parameters.put("initialPsn", 0);
        parameters.put("timerToleranceNs", config.timerToleranceNs());
        // Spec 0.2 clauses 12.1.5, 12.1.6: what decides applicability and what a rate hint is judged against.
        parameters.put("linkRateBitsPerSecond", ec.lineRateBitsPerSecond());
        parameters.put("targetUtilization", ec.rateHintUtilization());
        parameters.put("rateHintIntervalNs", ec.rateHintIntervalNs());
        parameters.put("decreaseFactor", ec.decreaseFactor());
        parameters.put("receiverNotReadyRetryUs", ec.receiverNotReadyRetryNs() / 1000);
        final ArrayNode optional = result.putArray("optionalClauses");
        config.optionalClauses().forEach(optional::add);
        final ObjectNode reorder = result.putObject("reorderTolerance");
        reorder.put("packets", 0);
        reorder.put("timeNs", 0);
        return result;
    }

    private ObjectNode reset() {
        for (final ConnectionEntry entry : List.copyOf(connections.values())) {
            destroy(entry);
        }
        for (final Integer key : List.copyOf(regionLengths.keySet())) {
            endpoint.invalidateRegion(key);
        }
        regionLengths.clear();
        memoryInUseBytes = 0;
        poller.clear();
        failedLogged.clear();
        connectionsFailedSeen = endpoint.counters().get(Counter.CONNECTIONS_FAILED);
        counters.rebase();
        return JSON.objectNode();
    }

    private ObjectNode createConnection(final Args args) {
        final int localId = (int) args.u32("localId");
        final int peerId = (int) args.u32("peerId");
        final InetAddress peerAddress = args.ipLiteral("peerAddress");
        final int requestedPort = (int) args.integer("peerPort", 1, 65535);
        final int peerPort = endpoint.config().defects().has(Defect.SEND_TO_DEFAULT_PORT)
                ? WireConstants.DEFAULT_UDP_PORT
                : requestedPort;
        final int paths = (int) args.integer("paths", 1, 256);
        final int streams = (int) args.integer("streams", 1, 65536);
        final long initialSendPsn = args.integer("initialSendPsn", 0, Args.U32_MAX, 0);
        final long initialReceivePsn = args.integer("initialReceivePsn", 0, Args.U32_MAX, 0);
        final long mtu = args.integer("mtu", 1, 65535, endpoint.config().mtuBytes());
        if (mtu != endpoint.config().mtuBytes()) {
            // Spec 0.2 clause 4.2.1: the MTU is a connection parameter; this device supports one.
            throw RequestError.invalidArgument(
                    "args.mtu",
                    "this device supports only MTU " + endpoint.config().mtuBytes() + ", not " + mtu);
        }
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
                    localId, peerId, node, paths, streams, initialSendPsn, initialReceivePsn, ENTROPY_BASE));
        } catch (final RuntimeException e) {
            peers.release(node);
            throw e;
        }
        connections.put(localId, new ConnectionEntry(localId, node, peerAddress, peerPort, paths, streams));
        pathsInUse += paths;
        LOG.info(
                "connection {} created: peer {} port {} connection {}, {} paths, {} streams",
                Integer.toUnsignedString(localId),
                peerAddress.getHostAddress(),
                peerPort,
                Integer.toUnsignedString(peerId),
                paths,
                streams);
        final ObjectNode result = JSON.objectNode();
        result.put("localId", Integer.toUnsignedLong(localId));
        final ArrayNode entropy = result.putArray("entropy");
        for (int p = 0; p < paths; p++) {
            entropy.add(peers.sourcePort(ENTROPY_BASE + p));
        }
        return result;
    }

    private ObjectNode destroyConnection(final Args args) {
        destroy(connection(args, "localId"));
        return JSON.objectNode();
    }

    private void destroy(final ConnectionEntry entry) {
        endpoint.destroyConnection(entry.localId);
        peers.release(entry.node);
        connections.remove(entry.localId);
        pathsInUse -= entry.paths;
        failedLogged.remove(entry.localId);
        LOG.info("connection {} destroyed", Integer.toUnsignedString(entry.localId));
    }

    private ObjectNode registerRegion(final Args args) {
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 1, MAX_MESSAGE_LENGTH);
        int access = 0;
        final List<String> names = args.strings("access");
        for (int i = 0; i < names.size(); i++) {
            access |= switch (names.get(i)) {
                case "LOCAL_WRITE" -> AccessFlags.LOCAL_WRITE;
                case "REMOTE_WRITE" -> AccessFlags.REMOTE_WRITE;
                case "REMOTE_READ" -> AccessFlags.REMOTE_READ;
                default ->
                    throw RequestError.invalidArgument(
                            "args.access[" + i + "]",
                            "access must be LOCAL_WRITE, REMOTE_WRITE or REMOTE_READ, not '" + names.get(i) + "'");
            };
        }
        if (Long.compareUnsigned(address + length, address) < 0) {
            throw RequestError.invalidArgument("args.address", "the region must not wrap the 64-bit address space");
        }
        if (memoryInUseBytes + length > config.memoryBudgetBytes()) {
            throw RequestError.conflict(
                    "args.length",
                    "regions would hold " + (memoryInUseBytes + length) + " bytes; this device's budget is "
                            + config.memoryBudgetBytes());
        }
        final MemoryRegion region = endpoint.registerRegion(address, length, access);
        regionLengths.put(region.key(), length);
        memoryInUseBytes += length;
        final ObjectNode result = JSON.objectNode();
        result.put("key", Integer.toUnsignedLong(region.key()));
        return result;
    }

    private ObjectNode invalidateRegion(final Args args) {
        final MemoryRegion region = region(args, "key");
        endpoint.invalidateRegion(region.key());
        final Integer length = regionLengths.remove(region.key());
        memoryInUseBytes -= length == null ? 0 : length;
        return JSON.objectNode();
    }

    private ObjectNode writeRegion(final Args args) {
        final MemoryRegion region = region(args, "key");
        final long address = args.u64("address");
        final byte[] data = args.base64("data", MAX_REGION_IO_BYTES);
        requireInside(region, address, data.length, "args.data");
        region.memory().put(index(region, address), data);
        return JSON.objectNode();
    }

    private ObjectNode readRegion(final Args args) {
        final MemoryRegion region = region(args, "key");
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 1, MAX_REGION_IO_BYTES);
        requireInside(region, address, length, "args.length");
        final byte[] data = new byte[length];
        region.memory().get(index(region, address), data);
        final ObjectNode result = JSON.objectNode();
        result.put("data", Base64.getEncoder().encodeToString(data));
        return result;
    }

    private ObjectNode postReceive(final Args args) {
        final ConnectionEntry connection = usableConnection(args);
        final int stream = stream(args, connection);
        final LocalBuffer buffer = localBuffer(args, true);
        final long wrId = args.integer("wrId", 0, Args.WR_ID_MAX);
        try {
            endpoint.postReceive(connection.localId, stream, buffer.key, buffer.address, buffer.length, wrId);
        } catch (final IllegalStateException e) {
            throw RequestError.conflict("args.stream", e.getMessage());
        }
        return JSON.objectNode();
    }

    private ObjectNode postWrite(final Args args) {
        final ConnectionEntry connection = usableConnection(args);
        final int stream = stream(args, connection);
        final LocalBuffer buffer = localBuffer(args, false);
        final long remoteAddress = args.u64("remoteAddress");
        final int remoteKey = (int) args.u32("remoteKey");
        final long wrId = args.integer("wrId", 0, Args.WR_ID_MAX);
        final boolean withImmediate = args.has("immediate");
        final long immediate = withImmediate ? args.u32("immediate") : 0;
        post(() -> {
            if (withImmediate) {
                endpoint.postWriteWithImmediate(
                        connection.localId,
                        stream,
                        buffer.key,
                        buffer.address,
                        buffer.length,
                        remoteAddress,
                        remoteKey,
                        immediate,
                        wrId);
            } else {
                endpoint.postWrite(
                        connection.localId,
                        stream,
                        buffer.key,
                        buffer.address,
                        buffer.length,
                        remoteAddress,
                        remoteKey,
                        wrId);
            }
        });
        return JSON.objectNode();
    }

    private ObjectNode postSend(final Args args) {
        final ConnectionEntry connection = usableConnection(args);
        final int stream = stream(args, connection);
        final LocalBuffer buffer = localBuffer(args, false);
        final long wrId = args.integer("wrId", 0, Args.WR_ID_MAX);
        post(() -> endpoint.postSend(connection.localId, stream, buffer.key, buffer.address, buffer.length, wrId));
        return JSON.objectNode();
    }

    private ObjectNode postRead(final Args args) {
        final ConnectionEntry connection = usableConnection(args);
        final int stream = stream(args, connection);
        final LocalBuffer buffer = localBuffer(args, true);
        final long remoteAddress = args.u64("remoteAddress");
        final int remoteKey = (int) args.u32("remoteKey");
        final long wrId = args.integer("wrId", 0, Args.WR_ID_MAX);
        post(() -> endpoint.postRead(
                connection.localId, stream, buffer.key, buffer.address, buffer.length, remoteAddress, remoteKey, wrId));
        return JSON.objectNode();
    }

    private static void post(final Runnable work) {
        try {
            work.run();
        } catch (final IllegalStateException e) {
            throw RequestError.conflict("args.stream", e.getMessage());
        }
    }

    private ObjectNode pathStatus(final Args args) {
        final ConnectionEntry connection = connection(args, "connection");
        final ObjectNode result = JSON.objectNode();
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
            json.put("srttNs", status.srttNs());
            json.put("rtoNs", status.rtoNs());
        }
        return result;
    }

    // ---------------------------------------------------------------- helpers

    /** A checked local buffer of a work request. */
    private record LocalBuffer(int key, long address, int length) {}

    private ConnectionEntry connection(final Args args, final String name) {
        final int localId = (int) args.u32(name);
        final ConnectionEntry entry = connections.get(localId);
        if (entry == null) {
            throw RequestError.notFound("args." + name, "no connection " + Integer.toUnsignedString(localId));
        }
        return entry;
    }

    private ConnectionEntry usableConnection(final Args args) {
        final ConnectionEntry entry = connection(args, "connection");
        if (!endpoint.isConnectionUp(entry.localId)) {
            throw RequestError.conflict(
                    "args.connection",
                    "connection " + Integer.toUnsignedString(entry.localId) + " has failed; destroy it");
        }
        return entry;
    }

    private static int stream(final Args args, final ConnectionEntry connection) {
        return (int) args.integer("stream", 0, connection.streams - 1);
    }

    private MemoryRegion region(final Args args, final String name) {
        final int key = (int) args.u32(name);
        final MemoryRegion region = endpoint.region(key);
        if (region == null || !region.isValid()) {
            throw RequestError.notFound("args." + name, "no region with key " + Integer.toUnsignedString(key));
        }
        return region;
    }

    private LocalBuffer localBuffer(final Args args, final boolean written) {
        final MemoryRegion region = region(args, "key");
        final long address = args.u64("address");
        final int length = (int) args.integer("length", 0, MAX_MESSAGE_LENGTH);
        requireInside(region, address, length, "args.length");
        if (written && (region.access() & AccessFlags.LOCAL_WRITE) == 0) {
            throw RequestError.invalidArgument("args.key", "the region lacks LOCAL_WRITE access");
        }
        return new LocalBuffer(region.key(), address, length);
    }

    private static void requireInside(
            final MemoryRegion region, final long address, final long length, final String field) {
        if (!region.contains(address, length)) {
            throw RequestError.invalidArgument(
                    Long.compareUnsigned(address, region.address()) < 0
                                    || Long.compareUnsigned(address - region.address(), region.length()) > 0
                            ? "args.address"
                            : field,
                    length + " bytes at 0x" + Long.toHexString(address) + " are outside the region of "
                            + region.length() + " bytes at 0x" + Long.toHexString(region.address()));
        }
    }

    private static int index(final MemoryRegion region, final long address) {
        return (int) (address - region.address());
    }

    /** Visible for tests: the parked polls. */
    int parkedPolls() {
        return poller.parkedPolls();
    }
}

package org.mrconf.agent;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.mrconf.defect.Defect;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Completion;
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
    public static final Set<String> STANDARD_COUNTERS = Set.of(
            "rx_packets",
            "rx_truncated",
            "rx_unsupported_version",
            "rx_unknown_opcode",
            "rx_bad_crc",
            "rx_inconsistent_length",
            "rx_invalid_field",
            "rx_unknown_connection",
            "rx_unexpected_source",
            "rx_invalid_path",
            "rx_duplicate",
            "rx_stale",
            "rx_out_of_window",
            "rx_ce_marked",
            "reject_remote_access",
            "reject_bounds",
            "reject_receiver_not_ready",
            "reject_message_too_long",
            "reject_invalid_request",
            "tx_data_packets",
            "tx_retransmissions",
            "rto_expirations",
            "repaths");

    /** Source port of path 0 of every connection before the runtime maps it; path i starts at base + i. */
    static final int ENTROPY_BASE = 49152;

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    private static final Logger LOG = LoggerFactory.getLogger(ControlAgent.class);
    private static final JsonNodeFactory JSON = MAPPER.getNodeFactory();

    /** A connection the agent created, with what it needs to check requests and to clean up. */
    private record ConnectionEntry(
            int localId, int node, InetAddress peerAddress, int peerPort, int paths, int streams) {}

    /** A poll waiting for its first completion. */
    private record ParkedPoll(JsonNode id, int max, long deadlineNs, Consumer<String> reply) {}

    private final Endpoint endpoint;
    private final PeerDirectory peers;
    private final AgentConfig config;
    private final Map<Integer, ConnectionEntry> connections = new LinkedHashMap<>();
    private final Map<Integer, Integer> regionLengths = new LinkedHashMap<>();
    private final ArrayDeque<Completion> completions = new ArrayDeque<>();
    private final ArrayDeque<ParkedPoll> parked = new ArrayDeque<>();
    private final Set<Integer> failedLogged = new HashSet<>();
    private Map<String, Long> baseline = Map.of();
    private long memoryInUseBytes;
    private long connectionsFailedSeen;

    /**
     * @param endpoint the device; the agent is its only user besides the runtime's network calls
     * @param peers    the runtime's address map
     */
    public ControlAgent(final Endpoint endpoint, final PeerDirectory peers, final AgentConfig config) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.peers = Objects.requireNonNull(peers, "peers");
        this.config = Objects.requireNonNull(config, "config");
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
        if (parked.isEmpty()) {
            return;
        }
        drainEndpoint();
        // Oldest first: completions go to the poll that has waited longest; any poll may expire first.
        final Iterator<ParkedPoll> polls = parked.iterator();
        while (polls.hasNext()) {
            final ParkedPoll poll = polls.next();
            if (!completions.isEmpty() || poll.deadlineNs - nowNs <= 0) {
                polls.remove();
                answerPoll(poll.id, poll.max, poll.reply);
            }
        }
    }

    /** The earliest time a parked poll's wait expires, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNs() {
        long earliest = Long.MAX_VALUE;
        for (final ParkedPoll poll : parked) {
            earliest = Math.min(earliest, poll.deadlineNs);
        }
        return earliest;
    }

    /** Answers every parked poll with what is there; the runtime calls it once, when it stops. */
    public void shutdown() {
        drainEndpoint();
        while (!parked.isEmpty()) {
            final ParkedPoll poll = parked.pollFirst();
            answerPoll(poll.id, poll.max, poll.reply);
        }
    }

    /**
     * A response line for an error found outside the agent (by a server framing lines): {@code id} null.
     */
    public static String errorLine(final ErrorCode code, final String message) {
        return errorResponse(NullNode.getInstance(), new RequestError(code, message, null));
    }

    // ---------------------------------------------------------------- envelope

    private void handle(final String line, final long nowNs, final boolean mayWait, final Consumer<String> reply) {
        JsonNode id = NullNode.getInstance();
        String response;
        try {
            final ObjectNode request = parse(line);
            final JsonNode idNode = request.get("id");
            if (idNode != null && (idNode.isNumber() || idNode.isTextual())) {
                id = idNode;
            }
            checkVersion(request.get("v"));
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
            checkToken(request.get("token"));
            final Args args = new Args(argsNode == null ? JSON.objectNode() : (ObjectNode) argsNode);
            if (op.textValue().equals("poll_completions")) {
                pollCompletions(id, args, nowNs, mayWait, reply);
                return;
            }
            response = successResponse(id, dispatch(op.textValue(), args));
        } catch (final RequestError e) {
            response = errorResponse(id, e);
        } catch (final OutOfMemoryError e) {
            response = errorResponse(id, new RequestError(ErrorCode.INTERNAL, "out of memory", null));
        } catch (final RuntimeException | StackOverflowError e) {
            LOG.debug("request failed", e);
            response = errorResponse(id, new RequestError(ErrorCode.INTERNAL, String.valueOf(e), null));
        }
        reply.accept(response);
    }

    private static ObjectNode parse(final String line) {
        final JsonNode node;
        try {
            node = MAPPER.readTree(line);
        } catch (final JsonProcessingException e) {
            throw new RequestError(ErrorCode.PARSE_ERROR, "not JSON: " + e.getOriginalMessage(), null);
        }
        if (node == null || !node.isObject()) {
            throw new RequestError(ErrorCode.PARSE_ERROR, "the line is not a JSON object", null);
        }
        return (ObjectNode) node;
    }

    private static void checkVersion(final JsonNode v) {
        if (v == null || !v.isNumber() || v.decimalValue().compareTo(BigDecimal.valueOf(PROTOCOL_VERSION)) != 0) {
            throw new RequestError(
                    ErrorCode.UNSUPPORTED_VERSION,
                    "v must be a protocol version this agent speaks: [" + PROTOCOL_VERSION + "]",
                    "v");
        }
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
            case "read_counters" -> readCounters();
            case "path_status" -> pathStatus(args);
            default ->
                throw new RequestError(
                        ErrorCode.UNKNOWN_OP,
                        "unknown operation '" + (op.length() > 64 ? op.substring(0, 64) + "..." : op) + "'",
                        "op");
        };
    }

    private static String successResponse(final JsonNode id, final ObjectNode result) {
        final ObjectNode response = JSON.objectNode();
        response.put("v", PROTOCOL_VERSION);
        response.set("id", id);
        response.put("ok", true);
        response.set("result", result);
        return write(response);
    }

    private static String errorResponse(final JsonNode id, final RequestError e) {
        final ObjectNode response = JSON.objectNode();
        response.put("v", PROTOCOL_VERSION);
        response.set("id", id);
        response.put("ok", false);
        final ObjectNode error = response.putObject("error");
        error.put("code", e.code.wireName());
        error.put("message", e.getMessage());
        if (e.field != null) {
            error.put("field", e.field);
        }
        return write(response);
    }

    private static String write(final ObjectNode response) {
        try {
            return MAPPER.writeValueAsString(response);
        } catch (final JsonProcessingException e) {
            return "{\"v\":1,\"id\":null,\"ok\":false,\"error\":{\"code\":\"internal\",\"message\":\"cannot format the response\"}}";
        }
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
        limits.put("mtu", ec.mtuBytes() - (ec.defects().has(org.mrconf.defect.Defect.HELLO_UNDERSTATES_MTU) ? 512 : 0));
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
        drainEndpoint();
        completions.clear();
        failedLogged.clear();
        connectionsFailedSeen = endpoint.counters().get(Counter.CONNECTIONS_FAILED);
        baseline = rawCounters();
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
        if (connections.containsKey(localId)) {
            throw RequestError.conflict("args.localId", "connection " + Integer.toUnsignedString(localId) + " exists");
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

    private void pollCompletions(
            final JsonNode id, final Args args, final long nowNs, final boolean mayWait, final Consumer<String> reply) {
        final int max = (int) args.integer("max", 1, MAX_POLL);
        final long waitMs = args.integer("waitMs", 0, MAX_WAIT_MS, 0);
        drainEndpoint();
        if (completions.isEmpty() && waitMs > 0 && mayWait) {
            parked.addLast(new ParkedPoll(id, max, nowNs + waitMs * 1_000_000L, reply));
            return;
        }
        answerPoll(id, max, reply);
    }

    private void answerPoll(final JsonNode id, final int max, final Consumer<String> reply) {
        final ObjectNode result = JSON.objectNode();
        final ArrayNode list = result.putArray("completions");
        for (int i = 0; i < max && !completions.isEmpty(); i++) {
            final Completion c = completions.pollFirst();
            final ObjectNode json = list.addObject();
            json.put("wrId", c.workRequestId());
            json.put("connection", Integer.toUnsignedLong(c.connectionId()));
            json.put("stream", c.streamId());
            if (c.msn() < 0) {
                json.putNull("msn");
            } else {
                json.put("msn", c.msn());
            }
            json.put("type", c.type().name());
            json.put("status", c.status().name());
            json.put("length", c.byteLength());
            json.put("immediate", c.immediate());
        }
        reply.accept(successResponse(id, result));
    }

    private ObjectNode readCounters() {
        final Map<String, Long> raw = rawCounters();
        final ObjectNode result = JSON.objectNode();
        final ObjectNode counters = result.putObject("counters");
        final boolean counterMissing = endpoint.config().defects().has(org.mrconf.defect.Defect.COUNTER_MISSING);
        for (final Map.Entry<String, Long> counter : raw.entrySet()) {
            if (counterMissing && counter.getKey().equals("rx_unexpected_source")) {
                continue;
            }
            counters.put(counter.getKey(), counter.getValue() - baseline.getOrDefault(counter.getKey(), 0L));
        }
        return result;
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

    private void drainEndpoint() {
        Completion completion;
        while ((completion = endpoint.pollCompletion()) != null) {
            completions.addLast(completion);
        }
    }

    private Map<String, Long> rawCounters() {
        final Map<String, Long> raw = new TreeMap<>();
        for (final Counter counter : Counter.values()) {
            raw.put(
                    counterName(counter.name().toLowerCase(Locale.ROOT)),
                    endpoint.counters().get(counter));
        }
        for (final Map.Entry<String, Long> extra : config.extraCounters().get().entrySet()) {
            raw.merge(counterName(extra.getKey()), extra.getValue(), Long::sum);
        }
        return raw;
    }

    /** The protocol name of a counter: standard names as they are, every other one with {@code x_}. */
    static String counterName(final String name) {
        return STANDARD_COUNTERS.contains(name) || name.startsWith("x_") ? name : "x_" + name;
    }

    /** Visible for tests: the parked polls. */
    int parkedPolls() {
        return parked.size();
    }
}

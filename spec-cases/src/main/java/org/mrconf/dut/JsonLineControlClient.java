package org.mrconf.dut;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;
import org.mrconf.catalogue.Profile;
import org.mrconf.dut.JsonFields.FieldException;

/**
 * {@link DutControl} over the DUT control protocol, version 1: builds each request as one JSON line, hands it to
 * a {@link LineTransport} and checks the response line field by field. An agent error becomes a
 * {@link DutControlException} with the agent's code, message and field; a response that breaks the protocol
 * becomes {@link DutErrorCode#MALFORMED_RESPONSE} naming the response field at fault.
 *
 * <p>Region transfers are cut into requests of {@value #REGION_CHUNK_BYTES} bytes so every line stays within the
 * protocol's 1 MiB. After a transport failure or a response with the wrong id the client refuses further calls,
 * because responses could no longer be paired with requests. Not thread-safe.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonLineControlClient implements DutControl {
    /** The protocol version this client speaks. */
    public static final int PROTOCOL_VERSION = 1;
    /** Longest line of the protocol, newline included. */
    public static final int MAX_LINE_BYTES = 1 << 20;
    /** Bytes per {@code write_region} or {@code read_region} request: base64 of it fits a line with room to spare. */
    public static final int REGION_CHUNK_BYTES = 512 * 1024;
    /** Largest {@code max} of {@code poll_completions}. */
    public static final int MAX_POLL = 4096;
    /** Longest wait of {@code poll_completions}. */
    public static final Duration MAX_POLL_WAIT = Duration.ofSeconds(10);

    private static final String CLIENT_NAME = "mrconf conformance suite";

    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private final JsonNodeFactory nodes = JsonNodeFactory.instance;
    private final LineTransport transport;
    private final String token;
    private long nextId = 1;
    private String unusable;

    /** A client without a token, e.g. for an agent on loopback or in the same process. */
    public JsonLineControlClient(LineTransport transport) {
        this(transport, Optional.empty());
    }

    /** A client that sends {@code token} with every request (protocol section 3). */
    public JsonLineControlClient(LineTransport transport, Optional<String> token) {
        this.transport = Objects.requireNonNull(transport, "transport");
        this.token = token.orElse(null);
    }

    /** Connects over TCP with the default timeouts of {@link TcpLineTransport}. */
    public static JsonLineControlClient connect(ControlEndpoint endpoint) throws DutControlException {
        return connect(endpoint, TcpLineTransport.DEFAULT_CONNECT_TIMEOUT, TcpLineTransport.DEFAULT_RESPONSE_TIMEOUT);
    }

    /** Connects over TCP to the agent at {@code endpoint}, sending its token with every request. */
    public static JsonLineControlClient connect(
            ControlEndpoint endpoint, Duration connectTimeout, Duration responseTimeout) throws DutControlException {
        try {
            return new JsonLineControlClient(
                    TcpLineTransport.connect(endpoint.host(), endpoint.port(), connectTimeout, responseTimeout),
                    endpoint.token());
        } catch (IOException e) {
            throw new DutControlException(DutErrorCode.TRANSPORT, "connect", e.getMessage(), null, e);
        }
    }

    @Override
    public DutInfo hello() throws DutControlException {
        ObjectNode args = nodes.objectNode().put("client", CLIENT_NAME);
        args.putArray("versions").add(PROTOCOL_VERSION);
        ObjectNode result = call("hello", args);
        return read("hello", () -> {
            long protocol = JsonFields.integer(result, "result", "protocol", 0, Integer.MAX_VALUE);
            if (protocol != PROTOCOL_VERSION) {
                throw new FieldException(
                        "result.protocol",
                        "must be " + PROTOCOL_VERSION + ", the version asked for, " + "found " + protocol);
            }
            ObjectNode impl = JsonFields.object(result, "result", "implementation");
            DutIdentity identity = new DutIdentity(
                    JsonFields.string(impl, "result.implementation", "vendor"),
                    JsonFields.string(impl, "result.implementation", "model"),
                    JsonFields.string(impl, "result.implementation", "firmware"),
                    JsonFields.string(impl, "result.implementation", "driver"));
            Set<Profile> profiles = EnumSet.noneOf(Profile.class);
            List<String> names = JsonFields.strings(result, "result", "profiles");
            for (int i = 0; i < names.size(); i++) {
                try {
                    profiles.add(Profile.fromSpecName(names.get(i)));
                } catch (IllegalArgumentException e) {
                    throw new FieldException("result.profiles[" + i + "]", e.getMessage());
                }
            }
            ObjectNode wire = JsonFields.object(result, "result", "wire");
            ArrayNode addressNodes = JsonFields.array(wire, "result.wire", "addresses");
            List<InetAddress> addresses = new ArrayList<>();
            for (int i = 0; i < addressNodes.size(); i++) {
                addresses.add(JsonFields.asAddress(addressNodes.get(i), "result.wire.addresses[" + i + "]"));
            }
            List<String> defects = result.has("defects") ? JsonFields.strings(result, "result", "defects") : List.of();
            ObjectNode limits = JsonFields.object(result, "result", "limits");
            String at = "result.limits";
            DutLimits dutLimits = new DutLimits(
                    (int) JsonFields.integer(limits, at, "maxPaths", 1, 256),
                    (int) JsonFields.integer(limits, at, "maxStreams", 1, 65_536),
                    JsonFields.integer(limits, at, "maxMessageLength", 1, Long.MAX_VALUE),
                    (int) JsonFields.integer(limits, at, "maxOutstandingMessages", 1, Integer.MAX_VALUE),
                    (int) JsonFields.integer(limits, at, "mtu", 1, Integer.MAX_VALUE));
            return new DutInfo(
                    (int) protocol,
                    identity,
                    profiles,
                    JsonFields.string(wire, "result.wire", "version"),
                    (int) JsonFields.integer(wire, "result.wire", "udpPort", 1, 0xFFFF),
                    addresses,
                    dutLimits,
                    JsonFields.has(result, "optionalClauses")
                            ? JsonFields.strings(result, "result", "optionalClauses")
                            : List.of(),
                    defects,
                    HelloDeclarations.read(result));
        });
    }

    @Override
    public void reset() throws DutControlException {
        call("reset", null);
    }

    @Override
    public List<Integer> createConnection(ConnectionSpec spec) throws DutControlException {
        ObjectNode args = nodes.objectNode()
                .put("localId", spec.localId())
                .put("peerId", spec.peerId())
                .put("peerAddress", spec.peerAddress().getHostAddress())
                .put("peerPort", spec.peerPort())
                .put("paths", spec.paths())
                .put("streams", spec.streams())
                .put("initialSendPsn", spec.initialSendPsn())
                .put("initialReceivePsn", spec.initialReceivePsn());
        if (spec.peerMaxOutstandingMessages() != ConnectionSpec.NO_MESSAGE_LIMIT) {
            // Only when a case sets it: the default is the document's, and agents written before 0.13 keep working.
            args.put("peerMaxOutstandingMessages", spec.peerMaxOutstandingMessages());
        }
        spec.localAddress().ifPresent(local -> args.put("localAddress", local.getHostAddress()));
        ObjectNode result = call("create_connection", args);
        return read("create_connection", () -> {
            ArrayNode entropy = JsonFields.array(result, "result", "entropy");
            if (entropy.size() != spec.paths()) {
                throw new FieldException(
                        "result.entropy",
                        "must hold one UDP source port per path (" + spec.paths() + "), found " + entropy.size());
            }
            List<Integer> ports = new ArrayList<>(entropy.size());
            for (int i = 0; i < entropy.size(); i++) {
                ports.add((int) JsonFields.asInteger(entropy.get(i), "result.entropy[" + i + "]", 0, 0xFFFF));
            }
            return List.copyOf(ports);
        });
    }

    @Override
    public void destroyConnection(long localId) throws DutControlException {
        call("destroy_connection", nodes.objectNode().put("localId", localId));
    }

    @Override
    public long registerRegion(long address, long length, Set<RegionAccess> access) throws DutControlException {
        ObjectNode args =
                nodes.objectNode().put("address", JsonFields.u64(address)).put("length", length);
        ArrayNode flags = args.putArray("access");
        EnumSet<RegionAccess> ordered = EnumSet.noneOf(RegionAccess.class);
        ordered.addAll(access);
        for (RegionAccess flag : ordered) {
            flags.add(flag.name());
        }
        ObjectNode result = call("register_region", args);
        return read("register_region", () -> JsonFields.integer(result, "result", "key", 0, 0xFFFF_FFFFL));
    }

    @Override
    public void invalidateRegion(long key) throws DutControlException {
        call("invalidate_region", nodes.objectNode().put("key", key));
    }

    @Override
    public void writeRegion(long key, long address, byte[] data) throws DutControlException {
        int offset = 0;
        do {
            int length = Math.min(REGION_CHUNK_BYTES, data.length - offset);
            byte[] chunk = Arrays.copyOfRange(data, offset, offset + length);
            call(
                    "write_region",
                    nodes.objectNode()
                            .put("key", key)
                            .put("address", JsonFields.u64(address + offset))
                            .put("data", Base64.getEncoder().encodeToString(chunk)));
            offset += length;
        } while (offset < data.length);
    }

    @Override
    public byte[] readRegion(long key, long address, int length) throws DutControlException {
        if (length < 0) {
            throw new IllegalArgumentException("length must not be negative: " + length);
        }
        byte[] data = new byte[length];
        int offset = 0;
        do {
            int chunk = Math.min(REGION_CHUNK_BYTES, length - offset);
            ObjectNode result = call(
                    "read_region",
                    nodes.objectNode()
                            .put("key", key)
                            .put("address", JsonFields.u64(address + offset))
                            .put("length", chunk));
            byte[] bytes = read("read_region", () -> {
                String text = JsonFields.string(result, "result", "data");
                byte[] decoded;
                try {
                    decoded = Base64.getDecoder().decode(text);
                } catch (IllegalArgumentException e) {
                    throw new FieldException("result.data", "not base64: " + e.getMessage());
                }
                if (decoded.length != chunk) {
                    throw new FieldException(
                            "result.data", "holds " + decoded.length + " bytes, " + chunk + " were asked for");
                }
                return decoded;
            });
            System.arraycopy(bytes, 0, data, offset, chunk);
            offset += chunk;
        } while (offset < length);
        return data;
    }

    @Override
    public void postReceive(WorkRequest receive) throws DutControlException {
        call("post_receive", workRequest(receive));
    }

    @Override
    public void postWrite(WorkRequest source, long remoteAddress, long remoteKey, OptionalLong immediate)
            throws DutControlException {
        ConnectionSpec.u32(remoteKey, "remoteKey");
        ObjectNode args = workRequest(source)
                .put("remoteAddress", JsonFields.u64(remoteAddress))
                .put("remoteKey", remoteKey);
        if (immediate.isPresent()) {
            ConnectionSpec.u32(immediate.getAsLong(), "immediate");
            args.put("immediate", immediate.getAsLong());
        }
        call("post_write", args);
    }

    @Override
    public void postSend(WorkRequest source) throws DutControlException {
        call("post_send", workRequest(source));
    }

    @Override
    public void postRead(WorkRequest sink, long remoteAddress, long remoteKey) throws DutControlException {
        ConnectionSpec.u32(remoteKey, "remoteKey");
        call(
                "post_read",
                workRequest(sink)
                        .put("remoteAddress", JsonFields.u64(remoteAddress))
                        .put("remoteKey", remoteKey));
    }

    @Override
    public List<DutCompletion> pollCompletions(int max, Duration wait) throws DutControlException {
        if (max < 1 || max > MAX_POLL) {
            throw new IllegalArgumentException("max must be 1 to " + MAX_POLL + ": " + max);
        }
        if (wait.isNegative() || wait.compareTo(MAX_POLL_WAIT) > 0) {
            throw new IllegalArgumentException("wait must be 0 to 10 s: " + wait);
        }
        ObjectNode result =
                call("poll_completions", nodes.objectNode().put("max", max).put("waitMs", wait.toMillis()));
        return read("poll_completions", () -> {
            ArrayNode array = JsonFields.array(result, "result", "completions");
            if (array.size() > max) {
                throw new FieldException(
                        "result.completions",
                        "holds " + array.size() + " completions, at most " + max + " were asked for");
            }
            List<DutCompletion> completions = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                String at = "result.completions[" + i + "]";
                ObjectNode c = JsonFields.asObject(array.get(i), at);
                completions.add(new DutCompletion(
                        JsonFields.integer(c, at, "wrId", 0, WorkRequest.MAX_WR_ID),
                        JsonFields.integer(c, at, "connection", 0, 0xFFFF_FFFFL),
                        (int) JsonFields.integer(c, at, "stream", 0, 0xFFFF),
                        c.path("msn").isNull()
                                ? DutCompletion.NO_MSN
                                : JsonFields.integer(c, at, "msn", 0, 0xFFFF_FFFFL),
                        enumValue(CompletionType.class, c, at, "type"),
                        enumValue(CompletionStatus.class, c, at, "status"),
                        JsonFields.integer(c, at, "length", 0, Long.MAX_VALUE),
                        JsonFields.has(c, "immediate") ? JsonFields.integer(c, at, "immediate", 0, 0xFFFF_FFFFL) : 0));
            }
            return List.copyOf(completions);
        });
    }

    @Override
    public Map<String, Long> readCounters() throws DutControlException {
        ObjectNode result = call("read_counters", null);
        return read("read_counters", () -> {
            ObjectNode counters = JsonFields.object(result, "result", "counters");
            Map<String, Long> values = new TreeMap<>();
            for (Map.Entry<String, JsonNode> field : counters.properties()) {
                values.put(
                        field.getKey(),
                        JsonFields.asInteger(field.getValue(), "result.counters." + field.getKey(), 0, Long.MAX_VALUE));
            }
            return Collections.unmodifiableMap(values);
        });
    }

    @Override
    public Optional<List<PathState>> pathStatus(long connection) throws DutControlException {
        ObjectNode result;
        try {
            result = call("path_status", nodes.objectNode().put("connection", connection));
        } catch (DutControlException e) {
            if (e.code() == DutErrorCode.UNKNOWN_OP) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(read("path_status", () -> {
            ArrayNode array = JsonFields.array(result, "result", "paths");
            List<PathState> paths = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                String at = "result.paths[" + i + "]";
                ObjectNode p = JsonFields.asObject(array.get(i), at);
                paths.add(new PathState(
                        (int) JsonFields.integer(p, at, "pathId", 0, 255),
                        (int) JsonFields.integer(p, at, "entropy", 0, 0xFFFF),
                        JsonFields.bool(p, at, "healthy"),
                        JsonFields.integer(p, at, "nextPsn", 0, 0xFFFF_FFFFL),
                        JsonFields.integer(p, at, "oldestUnackedPsn", 0, 0xFFFF_FFFFL),
                        JsonFields.has(p, "srttNs")
                                ? java.util.OptionalLong.of(JsonFields.integer(p, at, "srttNs", 0, Long.MAX_VALUE))
                                : java.util.OptionalLong.empty()));
            }
            return List.copyOf(paths);
        }));
    }

    /**
     * Sends any operation and returns its result object: for agent extensions and for tests of agents
     * themselves. {@code args} may be {@code null} for an operation without arguments.
     */
    public ObjectNode call(String op, ObjectNode args) throws DutControlException {
        if (unusable != null) {
            throw new DutControlException(
                    DutErrorCode.TRANSPORT,
                    op,
                    "the control channel is unusable after an earlier failure: " + unusable,
                    null);
        }
        long id = nextId++;
        ObjectNode request =
                nodes.objectNode().put("v", PROTOCOL_VERSION).put("id", id).put("op", op);
        if (token != null) {
            request.put("token", token);
        }
        if (args != null) {
            request.set("args", args);
        }
        String line = request.toString();
        int bytes = line.getBytes(StandardCharsets.UTF_8).length + 1;
        if (bytes > MAX_LINE_BYTES) {
            throw new DutControlException(
                    DutErrorCode.TRANSPORT,
                    op,
                    "request of " + bytes + " bytes exceeds the protocol's line limit of " + MAX_LINE_BYTES,
                    null);
        }
        String response;
        try {
            response = transport.exchange(line);
        } catch (IOException e) {
            unusable = String.valueOf(e.getMessage());
            throw new DutControlException(DutErrorCode.TRANSPORT, op, String.valueOf(e.getMessage()), null, e);
        }
        if (response == null) {
            unusable = "the transport returned no response";
            throw new DutControlException(DutErrorCode.TRANSPORT, op, unusable, null);
        }
        return parseResponse(op, id, response);
    }

    private ObjectNode parseResponse(String op, long id, String line) throws DutControlException {
        JsonNode tree;
        try {
            tree = mapper.readTree(line);
        } catch (JsonProcessingException e) {
            throw malformed(
                    op, null, "response is not JSON (" + e.getOriginalMessage() + "): " + JsonFields.abbreviate(line));
        }
        if (tree == null || !tree.isObject()) {
            throw malformed(op, null, "response is not a JSON object: " + JsonFields.abbreviate(line));
        }
        ObjectNode response = (ObjectNode) tree;
        return read(op, () -> {
            long version = JsonFields.integer(response, "", "v", 0, Long.MAX_VALUE);
            if (version != PROTOCOL_VERSION) {
                throw new FieldException("v", "must be " + PROTOCOL_VERSION + ", found " + version);
            }
            boolean ok = JsonFields.bool(response, "", "ok");
            JsonNode idNode = response.get("id");
            boolean idMatches = idNode != null
                    && idNode.isIntegralNumber()
                    && idNode.canConvertToLong()
                    && idNode.longValue() == id;
            // parse_error and request_too_large answers cannot know the id: the protocol sends null.
            boolean idUnknown = !ok && (idNode == null || idNode.isNull());
            if (!idMatches && !idUnknown) {
                unusable = "response id " + idNode + " did not match request id " + id;
                throw new FieldException(
                        "id",
                        "must be " + id + ", the request's id, found " + (idNode == null ? "none" : idNode.toString()));
            }
            if (ok) {
                return JsonFields.has(response, "result")
                        ? JsonFields.object(response, "", "result")
                        : nodes.objectNode();
            }
            ObjectNode error = JsonFields.object(response, "", "error");
            String code = JsonFields.string(error, "error", "code");
            String message = JsonFields.string(error, "error", "message");
            String field = JsonFields.has(error, "field") ? JsonFields.string(error, "error", "field") : null;
            DutErrorCode known = DutErrorCode.fromWireName(code);
            if (known == null) {
                throw new FieldException("error.code", "unknown code \"" + code + "\" (message: " + message + ")");
            }
            throw new AgentError(new DutControlException(known, op, message, field));
        });
    }

    private ObjectNode workRequest(WorkRequest wr) {
        return nodes.objectNode()
                .put("connection", wr.connection())
                .put("stream", wr.stream())
                .put("key", wr.key())
                .put("address", JsonFields.u64(wr.address()))
                .put("length", wr.length())
                .put("wrId", wr.wrId());
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, ObjectNode node, String path, String name)
            throws FieldException {
        String text = JsonFields.string(node, path, name);
        for (E value : type.getEnumConstants()) {
            if (value.name().equals(text)) {
                return value;
            }
        }
        throw new FieldException(
                JsonFields.path(path, name),
                "unknown value \"" + text + "\", expected one of " + Arrays.toString(type.getEnumConstants()));
    }

    /** Carries an agent's error out of a {@link Reader} lambda, which may only throw FieldException. */
    private static final class AgentError extends FieldException {
        private static final long serialVersionUID = 1L;

        private final transient DutControlException error;

        AgentError(DutControlException error) {
            super("error", error.getMessage());
            this.error = error;
        }
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read() throws FieldException;
    }

    private static <T> T read(String op, Reader<T> reader) throws DutControlException {
        try {
            return reader.read();
        } catch (AgentError e) {
            throw e.error;
        } catch (FieldException e) {
            throw malformed(op, e.field(), e.problem());
        }
    }

    private static DutControlException malformed(String op, String field, String problem) {
        return new DutControlException(DutErrorCode.MALFORMED_RESPONSE, op, problem, field);
    }

    @Override
    public void close() {
        if (unusable == null) {
            unusable = "closed";
        }
        try {
            transport.close();
        } catch (IOException e) {
            // Nothing useful to do: the channel is gone either way.
        }
    }
}

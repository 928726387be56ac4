package org.mrconf.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.mrconf.transport.Endpoint;
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
            List.of("4.1.5", "6.3.4", "6.4.3", "8.1.6", "8.2.4", "9.1.5", "10.1.3", "10.1.5", "10.2.2", "11.2.3");

    /** The protocol's JSON settings (exact decimals, no duplicate keys, no trailing tokens). */
    static final JsonMapper MAPPER = Envelope.MAPPER;

    private static final Logger LOG = LoggerFactory.getLogger(ControlAgent.class);
    private static final JsonNodeFactory JSON = Envelope.JSON;

    private final AgentConfig config;
    private final Hello hello;
    private final ConnectionTable connections;
    private final RegionTable regions;
    private final WorkRequests work;
    private final CompletionPoller poller;
    private final CounterReport counters;

    /**
     * @param endpoint the device; the agent is its only user besides the runtime's network calls
     * @param peers    the runtime's address map
     */
    public ControlAgent(final Endpoint endpoint, final PeerDirectory peers, final AgentConfig config) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(peers, "peers");
        this.config = Objects.requireNonNull(config, "config");
        this.hello = new Hello(endpoint, config);
        this.connections = new ConnectionTable(endpoint, peers, config);
        this.regions = new RegionTable(endpoint, config.memoryBudgetBytes());
        this.work = new WorkRequests(endpoint, connections, regions, Hello.maxMessageLength(endpoint, config));
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
        connections.onTick();
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
            if (idNode != null && (idNode.isIntegralNumber() || idNode.isTextual())) {
                id = idNode;
            }
            // Before anything else: a client without the token learns nothing about the request's faults.
            checkToken(request.get("token"));
            Envelope.checkVersion(request.get("v"));
            if (!id.isIntegralNumber() && !id.isTextual()) {
                throw new RequestError(ErrorCode.INVALID_REQUEST, "id is required: an integer or a string", "id");
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
            case "hello" -> hello.answer(args);
            case "reset" -> reset();
            case "create_connection" -> connections.create(args);
            case "destroy_connection" -> connections.destroy(args);
            case "register_region" -> regions.register(args);
            case "invalidate_region" -> regions.invalidate(args);
            case "write_region" -> regions.write(args);
            case "read_region" -> regions.read(args);
            case "post_receive" -> work.postReceive(args);
            case "post_write" -> work.postWrite(args);
            case "post_send" -> work.postSend(args);
            case "post_read" -> work.postRead(args);
            case "read_counters" -> counters.read();
            case "path_status" -> connections.pathStatus(args);
            default ->
                throw new RequestError(
                        ErrorCode.UNKNOWN_OP,
                        "unknown operation '" + (op.length() > 64 ? op.substring(0, 64) + "..." : op) + "'",
                        "op");
        };
    }

    // ---------------------------------------------------------------- operations

    private ObjectNode reset() {
        connections.clear();
        regions.clear();
        poller.clear();
        counters.rebase();
        return JSON.objectNode();
    }

    /** Visible for tests: the parked polls. */
    int parkedPolls() {
        return poller.parkedPolls();
    }
}

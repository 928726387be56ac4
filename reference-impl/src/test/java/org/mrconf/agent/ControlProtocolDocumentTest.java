package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.agent.Requests.access;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.markdown.MarkdownTables;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/**
 * Keeps docs/dut-control-protocol.md and the agent in step: every {@code ### op} of section 4 is an
 * operation the agent answers with success, called with exactly the arguments the document names, and
 * leaving out any argument the document does not mark optional is an {@code invalid_argument} naming it.
 */
class ControlProtocolDocumentTest {
    private static final Path DOCUMENT = Path.of("..", "docs", "dut-control-protocol.md");
    private static final Pattern HEADING = Pattern.compile("^### (\\w+)( \\(optional\\))?\\s*$");
    private static final Pattern BACKTICKED = Pattern.compile("`(\\w+)`");
    private static final long BASE = 0x2000_0000L;

    /** One operation as the document describes it. */
    private record DocumentedOp(String name, Map<String, Boolean> argumentIsOptional) {}

    private ControlAgent agent;
    private long nextId = 1;

    @BeforeEach
    void setUp() {
        final Endpoint endpoint = new Endpoint(EndpointConfig.defaults(), (d, s, e, b, o, l) -> {}, NanoClock.system());
        agent = new ControlAgent(endpoint, new MapPeers(), AgentConfig.builder().build());
    }

    @Test
    void shouldOfferExactlyTheDocumentedOperations() throws IOException {
        assertThat(documentedOps().keySet()).containsExactlyElementsOf(ControlAgent.OPERATIONS);
    }

    @Test
    void shouldAnswerEveryDocumentedOperationWithSuccessUsingOnlyDocumentedArguments() throws IOException {
        final Map<String, DocumentedOp> documented = documentedOps();
        final Map<String, ObjectNode> requests = validRequests();

        assertThat(requests.keySet()).containsExactlyInAnyOrderElementsOf(documented.keySet());
        for (final Map.Entry<String, ObjectNode> request : requests.entrySet()) {
            final DocumentedOp op = documented.get(request.getKey());
            final List<String> sent = new ArrayList<>();
            request.getValue().fieldNames().forEachRemaining(sent::add);
            assertThat(op.argumentIsOptional().keySet())
                    .as("documented arguments of %s", op.name())
                    .containsAll(sent);
        }
    }

    @Test
    void shouldAnswerInvalidArgumentWhenARequiredDocumentedArgumentIsLeftOut() throws IOException {
        final Map<String, DocumentedOp> documented = documentedOps();
        final Map<String, ObjectNode> requests = validRequests();
        int checked = 0;

        for (final DocumentedOp op : documented.values()) {
            for (final Map.Entry<String, Boolean> argument :
                    op.argumentIsOptional().entrySet()) {
                if (argument.getValue()) {
                    continue;
                }
                final ObjectNode args = requests.get(op.name()).deepCopy();
                args.remove(argument.getKey());
                final JsonNode response = call(op.name(), args);
                assertThat(response.at("/error/code").asText())
                        .as("%s without %s: %s", op.name(), argument.getKey(), response)
                        .isEqualTo("invalid_argument");
                assertThat(response.at("/error/field").asText()).isEqualTo("args." + argument.getKey());
                checked++;
            }
        }
        assertThat(checked).as("required arguments found in the document").isGreaterThan(30);
    }

    /**
     * Section 4's rule for several faults in one request: the arguments are checked in the order of the operation's
     * table, and the first that fails is the one reported. With every required argument left out, the error names the
     * first required one the document lists.
     */
    @Test
    void shouldNameTheFirstFailingArgumentInTheDocumentsOrder() throws IOException {
        int checked = 0;
        for (final DocumentedOp op : documentedOps().values()) {
            final java.util.Optional<String> first = op.argumentIsOptional().entrySet().stream()
                    .filter(argument -> !argument.getValue())
                    .map(Map.Entry::getKey)
                    .findFirst();
            if (first.isEmpty()) {
                continue;
            }
            final JsonNode response = call(op.name(), args());
            assertThat(response.at("/error/field").asText())
                    .as("%s with every argument left out: %s", op.name(), response)
                    .isEqualTo("args." + first.get());
            checked++;
        }
        assertThat(checked).as("operations with required arguments").isGreaterThan(8);
    }

    /**
     * Sends one valid request per operation, in an order where each finds the state it needs, and returns
     * them by operation; every one must succeed.
     */
    private Map<String, ObjectNode> validRequests() {
        final Map<String, ObjectNode> requests = new LinkedHashMap<>();
        send(requests, "hello", args("client", "document test", "versions", List.of(1)));
        send(requests, "reset", args());
        send(
                requests,
                "create_connection",
                args(
                        "localId",
                        9,
                        "peerId",
                        90,
                        "peerAddress",
                        "2001:db8::9",
                        "peerPort",
                        4796,
                        "paths",
                        2,
                        "streams",
                        1,
                        "initialSendPsn",
                        5,
                        "initialReceivePsn",
                        6));
        send(requests, "destroy_connection", args("localId", 9));
        requests.put(
                "create_connection",
                args(
                        "localId",
                        1,
                        "peerId",
                        10,
                        "peerAddress",
                        "192.0.2.10",
                        "peerPort",
                        4796,
                        "paths",
                        4,
                        "streams",
                        2));
        ok("create_connection", requests.get("create_connection"));
        final long spare = send(
                        requests,
                        "register_region",
                        args("address", hex(BASE + (1 << 20)), "length", 4096, "access", access("REMOTE_READ")))
                .get("key")
                .asLong();
        send(requests, "invalidate_region", args("key", spare));
        final ObjectNode region = args(
                "address",
                hex(BASE),
                "length",
                1 << 20,
                "access",
                access("LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ"));
        final long key = ok("register_region", region).get("key").asLong();
        requests.put("register_region", region);
        send(
                requests,
                "write_region",
                args(
                        "key",
                        key,
                        "address",
                        hex(BASE + 16),
                        "data",
                        Base64.getEncoder().encodeToString(new byte[] {1, 2, 3})));
        send(requests, "read_region", args("key", key, "address", hex(BASE), "length", 64));
        send(
                requests,
                "post_receive",
                args("connection", 1, "stream", 1, "key", key, "address", hex(BASE), "length", 4096, "wrId", 1));
        send(
                requests,
                "post_write",
                args(
                        "connection",
                        1,
                        "stream",
                        0,
                        "key",
                        key,
                        "address",
                        hex(BASE),
                        "length",
                        4096,
                        "remoteAddress",
                        hex(0x7000_0000L),
                        "remoteKey",
                        77,
                        "wrId",
                        2,
                        "immediate",
                        3));
        send(
                requests,
                "post_send",
                args("connection", 1, "stream", 1, "key", key, "address", hex(BASE), "length", 100, "wrId", 3));
        send(
                requests,
                "post_read",
                args(
                        "connection",
                        1,
                        "stream",
                        0,
                        "key",
                        key,
                        "address",
                        hex(BASE + 8192),
                        "length",
                        4096,
                        "remoteAddress",
                        hex(0x7000_0000L),
                        "remoteKey",
                        77,
                        "wrId",
                        4));
        send(requests, "poll_completions", args("max", 16, "waitMs", 0));
        send(requests, "read_counters", args());
        send(requests, "path_status", args("connection", 1));
        return requests;
    }

    private JsonNode send(final Map<String, ObjectNode> requests, final String op, final ObjectNode args) {
        requests.put(op, args);
        return ok(op, args);
    }

    /** The operations of section 4, each with its arguments and whether the document marks them optional. */
    private static Map<String, DocumentedOp> documentedOps() throws IOException {
        final List<String> lines = Files.readAllLines(DOCUMENT);
        final List<MarkdownTables.Table> tables = MarkdownTables.parse(lines);
        final Map<String, List<String>> sections = new LinkedHashMap<>();
        final Map<String, List<MarkdownTables.Table>> sectionTables = new LinkedHashMap<>();
        String current = null;
        boolean inOperations = false;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (line.startsWith("## ")) {
                inOperations = line.startsWith("## 4 ");
                current = null;
                continue;
            }
            final Matcher heading = HEADING.matcher(line);
            if (inOperations && heading.matches()) {
                current = heading.group(1);
                sections.put(current, new ArrayList<>());
                sectionTables.put(current, new ArrayList<>());
            } else if (current != null) {
                sections.get(current).add(line);
                final int lineNumber = i + 1;
                tables.stream().filter(t -> t.line() == lineNumber).forEach(sectionTables.get(current)::add);
            }
        }
        final Map<String, DocumentedOp> ops = new LinkedHashMap<>();
        sections.forEach((name, body) ->
                ops.put(name, new DocumentedOp(name, arguments(body, sectionTables.get(name)))));
        return ops;
    }

    /**
     * The arguments of one operation: the first column of an {@code | Argument |} table, optional when its
     * Required column says "no"; or the backticked names of an "Arguments:" sentence, optional when the
     * sentence around the name says "optional".
     */
    private static Map<String, Boolean> arguments(final List<String> body, final List<MarkdownTables.Table> tables) {
        final Map<String, Boolean> arguments = new LinkedHashMap<>();
        for (final MarkdownTables.Table table : tables) {
            if (table.header().isEmpty() || !table.header().get(0).equals("Argument")) {
                continue;
            }
            for (final List<String> row : table.rows()) {
                final Matcher name = BACKTICKED.matcher(row.get(0));
                if (name.find()) {
                    // | Argument | Type | Required | Range and meaning |: "no, default ..." marks an optional one.
                    arguments.put(name.group(1), row.get(2).startsWith("no"));
                }
            }
        }
        final String text = String.join(" ", body);
        final int start = text.indexOf("Arguments:");
        if (start >= 0) {
            final Matcher end = Pattern.compile("\\.(\\s|$)").matcher(text);
            final String sentence = text.substring(start, end.find(start) ? end.start() : text.length());
            final Matcher name = BACKTICKED.matcher(sentence);
            while (name.find()) {
                final String before = sentence.substring(0, name.start());
                final String after = sentence.substring(name.end());
                final String parenthesis = after.startsWith(" (") ? after.substring(0, after.indexOf(')') + 1) : "";
                arguments.put(name.group(1), before.endsWith("optional ") || parenthesis.contains("optional"));
            }
        }
        return arguments;
    }

    private JsonNode call(final String op, final ObjectNode args) {
        return Requests.call(agent, nextId++, op, args);
    }

    private JsonNode ok(final String op, final ObjectNode args) {
        return Requests.result(op, call(op, args));
    }
}

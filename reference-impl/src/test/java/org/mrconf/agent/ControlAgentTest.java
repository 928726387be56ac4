package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mrconf.agent.Requests.access;
import static org.mrconf.agent.Requests.args;
import static org.mrconf.agent.Requests.completions;
import static org.mrconf.agent.Requests.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.wire.WireConstants;

/** The control agent over a real endpoint whose packets go nowhere: envelopes, arguments, state errors. */
class ControlAgentTest {
    private static final String TOKEN = "0123456789abcdef-token";
    private static final long BASE = 0x1000_0000L;
    private static final String PEER = "192.0.2.7";
    private static final InetAddress OFF_LOOPBACK = address(198, 51, 100, 1);

    private final List<Integer> packetsSent = new ArrayList<>();
    private final MapPeers peers = new MapPeers();
    private long nowNs = 1_000_000_000L;
    private ControlAgent agent;
    private long nextId = 1;

    @BeforeEach
    void setUp() {
        agent = agent(AgentConfig.builder().build());
    }

    // ---------------------------------------------------------------- envelopes

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "",
                "   ",
                "[1, 2]",
                "42",
                "\"text\"",
                "null",
                "{\"v\": 1",
                "{} {}",
                "{\"v\": 1, \"id\": 1, \"id\": 2, \"op\": \"hello\"}",
                "{\"v\": 1, \"id\": 1, \"op\": \"hello\"} trailing"
            })
    void shouldAnswerParseErrorWithANullIdToLinesThatAreNotOneJsonObject(final String line) {
        final JsonNode response = Requests.parse(agent.handle(line));

        assertError(response, "parse_error");
        assertThat(response.get("id").isNull()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"v\": 1, \"op\": \"hello\"}                              | id",
                "{\"v\": 1, \"id\": null, \"op\": \"hello\"}                | id",
                "{\"v\": 1, \"id\": {\"a\": 1}, \"op\": \"hello\"}          | id",
                "{\"v\": 1, \"id\": [1], \"op\": \"hello\"}                 | id",
                "{\"v\": 1, \"id\": true, \"op\": \"hello\"}                | id",
                "{\"v\": 1, \"id\": 5}                                      | op",
                "{\"v\": 1, \"id\": 5, \"op\": 7}                           | op",
                "{\"v\": 1, \"id\": 5, \"op\": \"hello\", \"args\": [1]}    | args",
                "{\"v\": 1, \"id\": 5, \"op\": \"hello\", \"args\": null}   | args",
                "{\"v\": 1, \"id\": 5, \"op\": \"hello\", \"args\": \"x\"}  | args"
            })
    void shouldAnswerInvalidRequestNamingTheEnvelopeField(final String line, final String field) {
        final JsonNode response = Requests.parse(agent.handle(line));

        assertError(response, "invalid_request");
        assertThat(errorField(response)).isEqualTo(field);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"id\": 9, \"op\": \"hello\"}",
                "{\"v\": 2, \"id\": 9, \"op\": \"hello\"}",
                "{\"v\": \"1\", \"id\": 9, \"op\": \"hello\"}",
                "{\"v\": 0, \"id\": 9, \"op\": \"hello\"}",
                "{\"v\": 1.5, \"id\": 9, \"op\": \"hello\"}"
            })
    void shouldAnswerUnsupportedVersionEchoingTheIdAndNamingTheVersions(final String line) {
        final JsonNode response = Requests.parse(agent.handle(line));

        assertError(response, "unsupported_version");
        assertThat(response.get("id").asInt()).isEqualTo(9);
        assertThat(response.at("/error/message").asText()).contains("[1]");
    }

    /** Section 2, "Which error wins": a request with several faults gets the error of the first check it fails. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"v\": 2, \"op\": 7}                                               | unsupported_version | v",
                "{\"v\": 1.0, \"id\": 9, \"op\": \"hello\"}                         | unsupported_version | v",
                "{\"v\": 1, \"op\": 7, \"args\": 3}                                  | invalid_request     | id",
                "{\"v\": 1, \"id\": 1.5, \"op\": \"hello\"}                         | invalid_request     | id",
                "{\"v\": 1, \"id\": 4, \"op\": 7, \"args\": 3}                       | invalid_request     | op",
                "{\"v\": 1, \"id\": 4, \"op\": \"format_disk\", \"args\": 3}          | invalid_request     | args",
                "{\"v\": 1, \"id\": 4, \"op\": \"format_disk\", \"args\": {\"length\": -1}} | unknown_op | op",
                "{\"v\": 1, \"id\": 4, \"op\": \"register_region\", \"args\": {\"address\": 5, \"length\": 0}} | invalid_argument | args.address",
                "{\"v\": 1, \"id\": 4, \"op\": \"post_write\", \"args\": {\"connection\": 77, \"length\": \"x\"}} | not_found | args.connection"
            })
    void shouldAnswerTheFirstCheckASeveralTimesWrongRequestFails(
            final String line, final String code, final String field) {
        final JsonNode response = Requests.parse(agent.handle(line));

        assertError(response, code);
        assertThat(errorField(response)).isEqualTo(field);
    }

    @Test
    void shouldAnswerUnsupportedVersionToAHelloFromAClientThatSpeaksOnlyLaterVersions() {
        assertError(call("hello", args("versions", List.of(2, 3))), "unsupported_version");
        assertThat(call("hello", args("versions", List.of(1, 2))).get("ok").asBoolean())
                .isTrue();
    }

    @Test
    void shouldReportNoDefectsOnTheCleanReferenceAndEveryActiveOneOtherwise() {
        assertThat(call("hello", args()).at("/result/defects").size()).isZero();

        agent = agentWithDefects(Defect.ACCEPT_BAD_CRC, Defect.STRICT_MINOR_VERSION);

        assertThat(call("hello", args()).at("/result/defects").toString())
                .isEqualTo("[\"accept-bad-crc\",\"strict-minor-version\"]");
    }

    @Test
    void shouldAnswerUnknownOp() {
        final JsonNode response = call("format_disk", args());

        assertError(response, "unknown_op");
        assertThat(errorField(response)).isEqualTo("op");
    }

    @Test
    void shouldEchoStringAndHugeNumericIdsExactly() {
        final String huge = "123456789012345678901234567890123456789";
        final String line = "{\"v\": 1, \"id\": " + huge + ", \"op\": \"read_counters\"}";

        assertThat(agent.handle(line)).startsWith("{\"v\":1,\"id\":" + huge + ",\"ok\":true");
        final JsonNode fraction = Requests.parse(agent.handle("{\"v\": 1, \"id\": 1e400, \"op\": \"reset\"}"));
        assertError(fraction, "invalid_request");
        assertThat(fraction.get("id").isNull())
                .as("an id written with an exponent is not an integer, so it is not echoed")
                .isTrue();
        assertThat(Requests.parse(agent.handle(Requests.line("req-\u00e9\n1", "reset", args())))
                        .get("id")
                        .asText())
                .isEqualTo("req-\u00e9\n1");
    }

    @Test
    void shouldAnswerEveryLineOnOneLineWithoutThrowingOnDeepNesting() {
        final String deep = "[".repeat(200_000) + "]".repeat(200_000);
        final String response = agent.handle(deep);

        assertError(Requests.parse(response), "parse_error");
        assertThat(response).doesNotContain("\n");
        assertThat(agent.handle("{\"v\":1,\"id\":1,\"op\":\"" + "x".repeat(1000) + "\"}"))
                .doesNotContain("\n");
    }

    // ---------------------------------------------------------------- arguments

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "register_region | {\"address\": \"0x1000\", \"length\": -1, \"access\": []}                        | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": 0, \"access\": []}                         | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": 1073741825, \"access\": []}                | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": 100000000000000000000000000000, \"access\": []} | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": 4096.5, \"access\": []}                    | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": \"4096\", \"access\": []}                  | args.length",
                "register_region | {\"address\": \"0x1000\", \"length\": 4096}                                      | args.access",
                "register_region | {\"address\": \"0x1000\", \"length\": 4096, \"access\": [\"EXECUTE\"]}         | args.access[0]",
                "register_region | {\"address\": \"0x1000\", \"length\": 4096, \"access\": [3]}                   | args.access[0]",
                "register_region | {\"address\": 4096, \"length\": 4096, \"access\": []}                          | args.address",
                "register_region | {\"address\": \"4096\", \"length\": 4096, \"access\": []}                        | args.address",
                "register_region | {\"address\": \"0x\", \"length\": 4096, \"access\": []}                          | args.address",
                "register_region | {\"address\": \"0x1ffffffffffffffff\", \"length\": 4096, \"access\": []}       | args.address",
                "register_region | {\"address\": \"0xfffffffffffff000\", \"length\": 8192, \"access\": []}       | args.length ",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": \"4\", \"streams\": 1} | args.paths",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": 257, \"streams\": 1}   | args.paths",
                "create_connection | {\"localId\": 4294967296, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 1} | args.localId",
                "create_connection | {\"localId\": 1, \"peerId\": -2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 1}  | args.peerId",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"dut.example\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 1} | args.peerAddress",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.256\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 1} | args.peerAddress",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 0, \"paths\": 1, \"streams\": 1}       | args.peerPort",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 65537} | args.streams",
                "create_connection | {\"localId\": 1, \"peerId\": 2, \"peerAddress\": \"192.0.2.1\", \"peerPort\": 4796, \"paths\": 1, \"streams\": 1, \"initialSendPsn\": 4294967296} | args.initialSendPsn",
                "poll_completions  | {\"max\": 0}                    | args.max",
                "poll_completions  | {\"max\": 4097}                 | args.max",
                "poll_completions  | {\"max\": 1, \"waitMs\": -1}    | args.waitMs",
                "poll_completions  | {\"max\": 1, \"waitMs\": 10001} | args.waitMs",
                "poll_completions  | {}                              | args.max",
                "hello             | {\"client\": 5}                 | args.client",
                "hello             | {\"versions\": [\"1\"]}         | args.versions[0]",
                "destroy_connection | {\"localId\": \"1\"}           | args.localId",
                "invalidate_region | {\"key\": -1}                   | args.key"
            })
    void shouldAnswerInvalidArgumentNamingTheField(final String op, final String argsJson, final String field) {
        final JsonNode response =
                Requests.parse(agent.handle("{\"v\":1,\"id\":1,\"op\":\"" + op + "\",\"args\":" + argsJson + "}"));

        assertError(response, "invalid_argument");
        assertThat(errorField(response)).isEqualTo(field);
    }

    @Test
    void shouldRejectBadBase64AndOversizedWritesAndReads() {
        final long key = registerRegion(BASE, 1 << 20, "LOCAL_WRITE");

        assertError(
                call("write_region", args("key", key, "address", hex(BASE), "data", "not base64!")),
                "invalid_argument");
        final String tooMuch = Base64.getEncoder().encodeToString(new byte[ControlAgent.MAX_REGION_IO_BYTES + 1]);
        assertThat(errorField(call("write_region", args("key", key, "address", hex(BASE), "data", tooMuch))))
                .isEqualTo("args.data");
        assertThat(errorField(call(
                        "read_region",
                        args("key", key, "address", hex(BASE), "length", ControlAgent.MAX_REGION_IO_BYTES + 1))))
                .isEqualTo("args.length");
        assertThat(errorField(call("read_region", args("key", key, "address", hex(BASE + (1 << 20) - 4), "length", 8))))
                .isEqualTo("args.length");
        assertThat(errorField(call("read_region", args("key", key, "address", hex(BASE - 1), "length", 8))))
                .isEqualTo("args.address");
    }

    /** The edge values section 2 and the region and buffer rules of section 4 of the control document name. */
    @Test
    void shouldTakeTheEdgeValuesTheDocumentNames() {
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        final String end = hex(BASE + 4096);

        ok("write_region", args("key", key, "address", end, "data", ""));
        assertThat(errorField(call("write_region", args("key", key, "address", hex(BASE + 4097), "data", ""))))
                .isEqualTo("args.address");
        ok(
                "write_region",
                args("key", key, "address", "0x" + Long.toHexString(BASE + 16).toUpperCase(), "data", "AQI="));
        assertThat(Base64.getDecoder()
                        .decode(ok("read_region", args("key", key, "address", hex(BASE + 16), "length", 2))
                                .get("data")
                                .asText()))
                .containsExactly(1, 2);
        assertThat(errorField(call(
                        "write_region", args("key", key, "address", "0X" + Long.toHexString(BASE), "data", "AQI="))))
                .isEqualTo("args.address");
        createConnection(1, 1, 1);
        final ObjectNode emptyAtTheEnd = work(0, key, 0, 9);
        emptyAtTheEnd.put("address", end);
        ok("post_send", emptyAtTheEnd);
    }

    /**
     * Open point 45, closed in the control document: {@code peerPort} defaults to 4796 as in spec clause 4.2.1; every
     * {@code conflict} but a failed connection's comes at step 7, after every argument's own checks; a receive longer
     * than {@code limits.maxMessageLength} is {@code invalid_argument} on its length.
     */
    @Test
    void shouldDefaultThePeerPortAndReportConflictsAfterTheArguments() {
        final ObjectNode noPort = connectionArgs(1, 101, 1, 1);
        noPort.remove("peerPort");
        ok("create_connection", noPort);
        assertThat(peers.ports).containsExactly(4796);

        final JsonNode inUseAndNoPaths = call("create_connection", connectionArgs(1, 102, 0, 1));
        assertError(inUseAndNoPaths, "invalid_argument");
        assertThat(errorField(inUseAndNoPaths))
                .as("step 6 (paths out of range) before step 7 (the id in use)")
                .isEqualTo("args.paths");
        final JsonNode inUse = call("create_connection", connectionArgs(1, 102, 1, 1));
        assertError(inUse, "conflict");
        assertThat(errorField(inUse)).isEqualTo("args.localId");
    }

    @Test
    void shouldRefuseAReceiveLongerThanTheDeclaredMaximumMessage() {
        agent = new ControlAgent(
                new Endpoint(
                        EndpointConfig.builder().maxMessageLength(1024).build(),
                        (dstNode, srcPort, ecn, buffer, offset, length) -> packetsSent.add(length),
                        NanoClock.system()),
                peers,
                AgentConfig.builder().build());
        assertThat(call("hello", args()).at("/result/limits/maxMessageLength").asLong())
                .isEqualTo(1024);
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        createConnection(1, 1, 1);

        ok("post_receive", work(0, key, 1024, 1));
        final JsonNode tooLong = call("post_receive", work(0, key, 1025, 2));
        assertError(tooLong, "invalid_argument");
        assertThat(errorField(tooLong)).isEqualTo("args.length");
        ok("post_send", work(0, key, 4096, 3)); // a sender's message is the peer's to refuse
    }

    // ---------------------------------------------------------------- state

    @Test
    void shouldAnswerNotFoundToWorkPostedBeforeTheConnectionExists() {
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");

        for (final String op : List.of("post_send", "post_receive")) {
            final JsonNode response = call(op, work(0, key, 64, 1));
            assertError(response, "not_found");
            assertThat(errorField(response)).isEqualTo("args.connection");
        }
        assertError(call("destroy_connection", args("localId", 1)), "not_found");
        assertError(call("path_status", args("connection", 1)), "not_found");
    }

    @Test
    void shouldAnswerNotFoundForUnknownOrInvalidatedKeys() {
        assertError(call("read_region", args("key", 12345, "address", hex(BASE), "length", 1)), "not_found");
        final long key = registerRegion(BASE, 4096);
        ok("invalidate_region", args("key", key));

        assertError(call("read_region", args("key", key, "address", hex(BASE), "length", 1)), "not_found");
        assertError(call("invalidate_region", args("key", key)), "not_found");
        createConnection(1, 1, 1);
        final JsonNode post = call("post_send", work(0, key, 1, 1));
        assertError(post, "not_found");
        assertThat(errorField(post)).isEqualTo("args.key");
    }

    @Test
    void shouldCheckStreamsBoundsAndAccessOfLocalBuffers() {
        createConnection(1, 1, 2);
        final long readOnly = registerRegion(BASE, 4096);

        assertThat(errorField(call("post_send", work(2, readOnly, 1, 1)))).isEqualTo("args.stream");
        assertThat(errorField(call("post_send", work(0, readOnly, 4097, 1)))).isEqualTo("args.length");
        assertThat(errorField(call("post_receive", work(0, readOnly, 64, 1)))).isEqualTo("args.key");
        assertThat(errorField(call("post_send", work(0, readOnly, 64, 1L << 53))))
                .isEqualTo("args.wrId");
        ok("post_send", work(1, readOnly, 0, (1L << 53) - 1));
    }

    @Test
    void shouldAnswerConflictForAConnectionIdInUseAndForAFullStream() {
        createConnection(7, 1, 1);
        assertError(createConnectionResponse(7), "conflict");

        final Endpoint small = new Endpoint(
                EndpointConfig.builder().limits(2, 2).build(), (d, s, e, b, o, l) -> {}, NanoClock.system());
        agent = new ControlAgent(small, peers, AgentConfig.builder().build());
        createConnection(1, 1, 1);
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        final ObjectNode receive = work(0, key, 64, 1);
        ok("post_receive", receive);
        ok("post_receive", receive);
        final JsonNode full = call("post_receive", receive);
        assertError(full, "conflict");
    }

    @Test
    void shouldAnswerConflictWhenTheMemoryBudgetIsUsedUp() {
        agent = agent(AgentConfig.builder().memoryBudget(8192).build());
        final long key = registerRegion(BASE, 8192);

        assertError(call("register_region", args("address", hex(BASE), "length", 1, "access", access())), "conflict");
        ok("invalidate_region", args("key", key));
        registerRegion(BASE, 4096);
        assertThat(ok("hello", args()).at("/limits/maxMessageLength").asLong()).isEqualTo(8192);
    }

    @Test
    void shouldRoundTripRegionBytesAndStartZeroFilled() {
        final long key = registerRegion(BASE, 4096);
        final byte[] bytes = {1, 2, 3, (byte) 0xFF};

        ok(
                "write_region",
                args(
                        "key",
                        key,
                        "address",
                        hex(BASE + 100),
                        "data",
                        Base64.getEncoder().encodeToString(bytes)));

        final String data = ok("read_region", args("key", key, "address", hex(BASE + 98), "length", 8))
                .get("data")
                .asText();
        assertThat(Base64.getDecoder().decode(data)).containsExactly(0, 0, 1, 2, 3, 0xFF, 0, 0);
    }

    @Test
    void shouldReportEveryStandardCounterAndPrefixTheOthers() {
        agent = agent(AgentConfig.builder()
                .extraCounters(() -> Map.of("widget_drops", 3L, "rx_packets", 2L))
                .build());

        final JsonNode counters = ok("read_counters", args()).get("counters");

        for (final String name : ControlAgent.STANDARD_COUNTERS) {
            assertThat(counters.has(name)).as(name).isTrue();
        }
        assertThat(counters.get("x_widget_drops").asLong()).isEqualTo(3);
        assertThat(counters.get("x_rx_acks").asLong()).isZero();
        // The packets refused because no receive state could be set aside for them (docs: section Limits).
        assertThat(counters.get("x_rx_dropped_no_state").asLong()).isZero();
        assertThat(counters.get("rx_packets").asLong()).isEqualTo(2);
        counters.fieldNames()
                .forEachRemaining(
                        name -> assertThat(ControlAgent.STANDARD_COUNTERS.contains(name) || name.startsWith("x_"))
                                .as(name)
                                .isTrue());
    }

    @Test
    void shouldResetConnectionsRegionsCountersAndCompletions() {
        createConnection(1, 2, 1);
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        ok("post_receive", work(0, key, 64, 5));
        ok("post_send", work(0, key, 64, 6));

        ok("reset", args());

        assertError(call("read_region", args("key", key, "address", hex(BASE), "length", 1)), "not_found");
        assertError(call("path_status", args("connection", 1)), "not_found");
        assertThat(completions(ok("poll_completions", args("max", 10)))).isEmpty();
        ok("read_counters", args())
                .get("counters")
                .fields()
                .forEachRemaining(
                        c -> assertThat(c.getValue().asLong()).as(c.getKey()).isZero());
        assertThat(peers.users).containsValue(0);
        createConnection(1, 2, 1);
    }

    @Test
    void shouldFlushOutstandingWorkWhenAConnectionIsDestroyed() {
        createConnection(1, 1, 1);
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        ok("post_receive", work(0, key, 64, 5));
        ok(
                "post_write",
                work(0, key, 64, 6)
                        .put("remoteAddress", hex(BASE))
                        .put("remoteKey", 99)
                        .put("immediate", 7));

        ok("destroy_connection", args("localId", 1));

        final List<JsonNode> flushed = completions(ok("poll_completions", args("max", 10)));
        assertThat(flushed).extracting(c -> c.get("status").asText()).containsOnly("FLUSHED");
        assertThat(flushed).extracting(c -> c.get("wrId").asLong()).containsExactlyInAnyOrder(5L, 6L);
        final JsonNode receive = flushed.stream()
                .filter(c -> c.get("wrId").asLong() == 5)
                .findFirst()
                .orElseThrow();
        assertThat(receive.get("type").asText()).isEqualTo("RECEIVE");
        assertThat(receive.get("msn").isNull()).isTrue();
        assertThat(flushed.stream()
                        .filter(c -> c.get("wrId").asLong() == 6)
                        .findFirst()
                        .orElseThrow()
                        .get("type")
                        .asText())
                .isEqualTo("WRITE_WITH_IMMEDIATE");
    }

    @Test
    void shouldReportPathsWithMappedEntropy() {
        agent = new ControlAgent(
                endpoint(),
                new MapPeers() {
                    @Override
                    public int sourcePort(final int entropy) {
                        return 40000 + entropy % 4;
                    }
                },
                AgentConfig.builder().build());

        final JsonNode created = createConnectionResponse(1).get("result");
        final JsonNode paths = ok("path_status", args("connection", 1)).get("paths");

        assertThat(created.get("entropy").toString()).isEqualTo("[40000,40001,40002,40003,40000,40001]");
        assertThat(paths).hasSize(6);
        assertThat(paths.get(5).get("pathId").asInt()).isEqualTo(5);
        assertThat(paths.get(5).get("entropy").asInt()).isEqualTo(40001);
        assertThat(paths.get(0).get("healthy").asBoolean()).isTrue();
        assertThat(paths.get(0).has("nextPsn")).isTrue();
        assertThat(paths.get(0).has("oldestUnackedPsn")).isTrue();
    }

    @Test
    void shouldRefuseWorkOnAFailedConnectionButStillDestroyIt() {
        final long[] clockNs = {0};
        final Endpoint endpoint = new Endpoint(
                EndpointConfig.builder().connectionTimeout(10_000_000).build(),
                (d, s, e, b, o, l) -> {},
                () -> clockNs[0]);
        agent = new ControlAgent(endpoint, peers, AgentConfig.builder().build());
        createConnection(1, 1, 1);
        final long key = registerRegion(BASE, 4096);
        final ObjectNode send = work(0, key, 64, 8);
        ok("post_send", send);

        for (int i = 0; i < 100_000 && endpoint.isConnectionUp(1) && endpoint.nextWakeupNs() != Long.MAX_VALUE; i++) {
            clockNs[0] = Math.max(clockNs[0], endpoint.nextWakeupNs());
            endpoint.onWakeup(clockNs[0]);
        }
        agent.onTick(clockNs[0]);

        assertThat(endpoint.isConnectionUp(1)).as("the peer never answered").isFalse();
        final JsonNode refused = call("post_send", send);
        assertError(refused, "conflict");
        assertThat(errorField(refused)).isEqualTo("args.connection");
        assertThat(completions(ok("poll_completions", args("max", 4))))
                .extracting(c -> c.get("status").asText())
                .containsExactly("TRANSPORT_TIMEOUT");
        ok("destroy_connection", args("localId", 1));
    }

    // ---------------------------------------------------------------- defects

    @Test
    void shouldMisstateHelloOnlyUnderItsDefects() {
        final JsonNode clean = ok("hello", args());
        agent = agentWithDefects(Defect.HELLO_OMITS_FIRMWARE, Defect.HELLO_UNDERSTATES_MTU);

        final JsonNode defective = ok("hello", args());

        assertThat(clean.at("/implementation/firmware").asText()).isNotEmpty();
        assertThat(defective.at("/implementation/firmware").asText()).isEmpty();
        assertThat(defective.at("/limits/mtu").asInt())
                .isEqualTo(clean.at("/limits/mtu").asInt() - 512);
    }

    @Test
    void shouldSendToTheDefaultPortOnlyUnderSendToDefaultPort() {
        final ObjectNode connection = connectionArgs(1, 2, 1, 1).put("peerPort", 5000);
        ok("create_connection", connection);
        agent = agentWithDefects(Defect.SEND_TO_DEFAULT_PORT);

        ok("create_connection", connection);

        assertThat(peers.ports).containsExactly(5000, WireConstants.DEFAULT_UDP_PORT);
    }

    @Test
    void shouldLeaveOutAStandardCounterOnlyUnderCounterMissing() {
        assertThat(ok("read_counters", args()).get("counters").has("rx_unexpected_source"))
                .isTrue();
        agent = agentWithDefects(Defect.COUNTER_MISSING);

        assertThat(ok("read_counters", args()).get("counters").has("rx_unexpected_source"))
                .isFalse();
    }

    // ---------------------------------------------------------------- waiting polls

    @Test
    void shouldParkAWaitingPollUntilItsWaitExpires() {
        final List<String> replies = new ArrayList<>();
        agent.handle(Requests.line(1, "poll_completions", args("max", 4, "waitMs", 50)), nowNs, replies::add);

        assertThat(replies).isEmpty();
        assertThat(agent.nextDeadlineNs()).isEqualTo(nowNs + 50_000_000L);
        agent.onTick(nowNs + 49_000_000L);
        assertThat(replies).isEmpty();

        agent.onTick(nowNs + 50_000_000L);

        assertThat(replies).hasSize(1);
        assertThat(completions(Requests.parse(replies.get(0)).get("result"))).isEmpty();
        assertThat(agent.nextDeadlineNs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldExpireAShortWaitParkedBehindALongOne() {
        final List<String> replies = new ArrayList<>();
        agent.handle(Requests.line("long", "poll_completions", args("max", 1, "waitMs", 10_000)), nowNs, replies::add);
        agent.handle(Requests.line("short", "poll_completions", args("max", 1, "waitMs", 50)), nowNs, replies::add);

        agent.onTick(nowNs + 50_000_000L);

        assertThat(replies).hasSize(1);
        assertThat(Requests.parse(replies.get(0)).get("id").asText()).isEqualTo("short");
        assertThat(agent.nextDeadlineNs()).isEqualTo(nowNs + 10_000_000_000L);
    }

    @Test
    void shouldAnswerAParkedPollAsSoonAsACompletionArrives() {
        createConnection(1, 1, 1);
        final long key = registerRegion(BASE, 4096, "LOCAL_WRITE");
        ok("post_receive", work(0, key, 64, 5));
        final List<String> replies = new ArrayList<>();
        agent.handle(Requests.line("wait", "poll_completions", args("max", 4, "waitMs", 10_000)), nowNs, replies::add);
        assertThat(replies).isEmpty();

        agent.handle(Requests.line(2, "destroy_connection", args("localId", 1)), nowNs, replies::add);
        agent.onTick(nowNs + 1);

        assertThat(replies).hasSize(2);
        final JsonNode poll = Requests.parse(replies.get(1));
        assertThat(poll.get("id").asText()).isEqualTo("wait");
        assertThat(completions(poll.get("result")))
                .extracting(c -> c.get("wrId").asLong())
                .containsExactly(5L);
    }

    @Test
    void shouldAnswerParkedPollsOnShutdown() {
        final List<String> replies = new ArrayList<>();
        agent.handle(Requests.line(1, "poll_completions", args("max", 1, "waitMs", 10_000)), nowNs, replies::add);

        agent.shutdown();

        assertThat(replies).hasSize(1);
        assertThat(Requests.parse(replies.get(0)).get("ok").asBoolean()).isTrue();
    }

    // ---------------------------------------------------------------- tokens

    @Test
    void shouldRefuseRequestsWithoutOrWithAWrongTokenWhenBoundOffLoopback() {
        agent = agent(AgentConfig.builder().access(OFF_LOOPBACK, TOKEN).build());
        final ObjectNode connection = connectionArgs(1, 2, 1, 1);

        assertError(Requests.parse(agent.handle(Requests.line(1, "create_connection", connection))), "unauthorized");
        assertError(
                Requests.parse(agent.handle(Requests.lineWithToken(2, "create_connection", connection, TOKEN + "x"))),
                "unauthorized");
        assertError(
                Requests.parse(agent.handle(Requests.lineWithToken(3, "hello", args(), "0123456789abcdef"))),
                "unauthorized");
        assertError(Requests.parse(agent.handle("{\"v\":1,\"id\":4,\"op\":\"hello\",\"token\":7}")), "unauthorized");

        final JsonNode created =
                Requests.parse(agent.handle(Requests.lineWithToken(5, "create_connection", connection, TOKEN)));
        assertThat(created.get("ok").asBoolean())
                .as("the refused requests had no effect")
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"id\":1,\"op\":\"hello\"}",
                "{\"v\":99,\"id\":1,\"op\":\"hello\"}",
                "{\"v\":1,\"op\":\"hello\"}",
                "{\"v\":1,\"id\":1}",
                "{\"v\":1,\"id\":1,\"op\":\"no_such_op\"}",
                "{\"v\":1,\"id\":1,\"op\":\"hello\",\"args\":7}",
                "{\"v\":\"x\",\"id\":[],\"op\":3,\"args\":[]}"
            })
    void shouldAnswerUnauthorizedBeforeLookingAtAnythingElse(final String request) {
        agent = agent(AgentConfig.builder().access(OFF_LOOPBACK, TOKEN).build());

        assertError(Requests.parse(agent.handle(request)), "unauthorized");
    }

    @Test
    void shouldRefuseConnectionsBeyondTheDeclaredLimits() {
        agent = agent(AgentConfig.builder().connectionLimits(3, 300).build());
        assertThat(ok("hello", args()).at("/limits/maxConnections").asInt()).isEqualTo(3);
        assertThat(ok("hello", args()).at("/limits/maxTotalPaths").asInt()).isEqualTo(300);
        for (int id = 1; id <= 2; id++) {
            ok("create_connection", connectionArgs(id, 100));
        }

        final JsonNode tooManyPaths = call("create_connection", connectionArgs(3, 101));
        assertError(tooManyPaths, "conflict");
        assertThat(errorField(tooManyPaths)).isEqualTo("args.paths");
        ok("create_connection", connectionArgs(3, 100));
        final JsonNode tooMany = call("create_connection", connectionArgs(4, 1));
        assertError(tooMany, "conflict");
        assertThat(tooMany.at("/error/message").asText()).contains("3 connections");

        ok("destroy_connection", args("localId", 1));
        ok("create_connection", connectionArgs(4, 1));
        ok("reset", args());
        assertThat(peers.inUse()).as("reset released every peer").isZero();
    }

    @Test
    void shouldDeclareAtMostAsManyConnectionsByDefaultAsTheSoftDutCanHold() {
        final JsonNode limits = ok("hello", args()).get("limits");

        assertThat(limits.get("maxConnections").asInt()).isEqualTo(AgentConfig.DEFAULT_MAX_CONNECTIONS);
        assertThat(limits.get("maxTotalPaths").asInt()).isEqualTo(AgentConfig.DEFAULT_MAX_TOTAL_PATHS);
    }

    @Test
    void shouldCheckATokenGivenOnLoopbackToo() {
        agent = agent(AgentConfig.builder()
                .access(InetAddress.getLoopbackAddress(), "short")
                .build());

        assertError(call("hello", args()), "unauthorized");
        assertThat(Requests.parse(agent.handle(Requests.lineWithToken(1, "hello", args(), "short")))
                        .get("ok")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void shouldRefuseToExistOffLoopbackWithoutATokenOfSixteenCharacters() {
        assertThatThrownBy(
                        () -> AgentConfig.builder().access(OFF_LOOPBACK, null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("token");
        assertThatThrownBy(() -> AgentConfig.builder()
                        .access(OFF_LOOPBACK, "fifteen-chars..")
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16");
        assertThatThrownBy(() -> TokenPolicy.check(address(0, 0, 0, 0), null))
                .isInstanceOf(IllegalArgumentException.class);
        TokenPolicy.check(OFF_LOOPBACK, "sixteen-chars..!");
        TokenPolicy.check(InetAddress.getLoopbackAddress(), null);
    }

    // ---------------------------------------------------------------- helpers

    private ControlAgent agent(final AgentConfig config) {
        return new ControlAgent(endpoint(), peers, config);
    }

    /** Spec clause 5.6.7 and section 4: an endpoint built without read, immediate and congestion claims none. */
    @Test
    void shouldNeitherClaimNorOfferWhatTheEndpointLacks() {
        agent = new ControlAgent(
                new Endpoint(
                        EndpointConfig.builder()
                                .features(java.util.EnumSet.noneOf(org.mrconf.transport.Feature.class))
                                .build(),
                        (dstNode, srcPort, ecn, buffer, offset, length) -> packetsSent.add(length),
                        NanoClock.system()),
                peers,
                AgentConfig.builder().build());

        assertThat(call("hello", args()).at("/result/profiles").toString())
                .isEqualTo("[\"core\",\"multipath\",\"streams\"]");
        final JsonNode read = call("post_read", args("connection", 99));
        assertError(read, "unknown_op");
        assertThat(errorField(read)).isEqualTo("op");
    }

    private ControlAgent agentWithDefects(final Defect... defects) {
        return new ControlAgent(
                new Endpoint(
                        EndpointConfig.builder().defects(Defects.of(defects)).build(),
                        (dstNode, srcPort, ecn, buffer, offset, length) -> packetsSent.add(length),
                        NanoClock.system()),
                peers,
                AgentConfig.builder().build());
    }

    private Endpoint endpoint() {
        return new Endpoint(
                EndpointConfig.defaults(),
                (dstNode, srcPort, ecn, buffer, offset, length) -> packetsSent.add(length),
                NanoClock.system());
    }

    private static ObjectNode connectionArgs(final int localId, final int paths) {
        return connectionArgs(localId, localId, paths, 65536);
    }

    private static ObjectNode connectionArgs(final int localId, final int peerId, final int paths, final int streams) {
        return args(
                "localId",
                localId,
                "peerId",
                peerId,
                "peerAddress",
                PEER,
                "peerPort",
                4796,
                "paths",
                paths,
                "streams",
                streams);
    }

    /** The arguments of a work request on connection 1 with a local buffer at {@code BASE}. */
    private static ObjectNode work(final int stream, final long key, final long length, final long wrId) {
        return args(
                "connection", 1, "stream", stream, "key", key, "address", hex(BASE), "length", length, "wrId", wrId);
    }

    private JsonNode call(final String op, final ObjectNode args) {
        return Requests.call(agent, nextId++, op, args);
    }

    private JsonNode ok(final String op, final ObjectNode args) {
        return Requests.result(op, call(op, args));
    }

    private long registerRegion(final long address, final int length, final String... access) {
        return ok("register_region", args("address", hex(address), "length", length, "access", List.of(access)))
                .get("key")
                .asLong();
    }

    private JsonNode createConnectionResponse(final int localId) {
        return call("create_connection", connectionArgs(localId, 100 + localId, 6, 1));
    }

    private void createConnection(final int localId, final int paths, final int streams) {
        ok("create_connection", connectionArgs(localId, 100 + localId, paths, streams));
    }

    private static String errorField(final JsonNode response) {
        return response.at("/error/field").asText();
    }

    private static void assertError(final JsonNode response, final String code) {
        assertThat(response.get("v").asInt()).isEqualTo(1);
        assertThat(response.get("ok").asBoolean()).as("ok in %s", response).isFalse();
        assertThat(response.at("/error/code").asText())
                .as("code in %s", response)
                .isEqualTo(code);
        assertThat(response.at("/error/message").asText()).isNotBlank();
    }

    private static InetAddress address(final int a, final int b, final int c, final int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (final java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.mrconf.catalogue.Profile;

class JsonLineControlClientTest {
    private static final String TOKEN = "s3cret-s3cret-s3cret";
    private static final String HELLO_RESULT = """
        {"protocol": 1,
         "implementation": {"vendor": "MetaRoCE Open Conformance", "model": "reference soft DUT", "firmware": "0.1.0",
                            "driver": "java"},
         "profiles": ["core", "multipath", "streams", "read", "immediate", "congestion"],
         "wire": {"version": "1.0", "udpPort": 4796, "addresses": ["127.0.0.1"]},
         "limits": {"maxPaths": 256, "maxStreams": 65536, "maxMessageLength": 1073741824,
                    "maxOutstandingMessages": 1024, "mtu": 4176}}""".replace("\n", " ");
    private static final Duration SHORT = Duration.ofMillis(300);

    private FakeAgent agent;
    private JsonLineControlClient client;

    @AfterEach
    void tearDown() throws Exception {
        if (client != null) {
            client.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void shouldSayHelloAndReadWhatTheAgentClaims() throws Exception {
        connect(FakeAgent.succeedWith(HELLO_RESULT));

        DutInfo info = client.hello();

        assertThat(info.implementation())
                .isEqualTo(new DutIdentity("MetaRoCE Open Conformance", "reference soft DUT", "0.1.0", "java"));
        assertThat(info.profiles())
                .containsExactlyInAnyOrder(
                        Profile.CORE,
                        Profile.MULTIPATH,
                        Profile.STREAMS,
                        Profile.READ,
                        Profile.IMMEDIATE,
                        Profile.CONGESTION);
        assertThat(info.udpPort()).isEqualTo(4796);
        assertThat(info.addresses()).containsExactly(InetAddress.getByName("127.0.0.1"));
        assertThat(info.limits()).isEqualTo(new DutLimits(256, 65_536, 1_073_741_824L, 1024, 4176));
        JsonNode request = agent.lastRequest();
        assertThat(request.get("v").asInt()).isEqualTo(1);
        assertThat(request.get("id").asLong()).isEqualTo(1);
        assertThat(request.get("op").asText()).isEqualTo("hello");
        assertThat(request.get("args").get("versions").toString()).isEqualTo("[1]");
        assertThat(request.has("token")).isFalse();
    }

    @Test
    void shouldSendEveryOperationWithTheDocumentedArguments() throws Exception {
        connect(request -> respond(request));
        ConnectionSpec spec = ConnectionSpec.of(1, 2, InetAddress.getByName("127.0.0.1"), 5000, 2, 4)
                .withInitialPsns(0xFFFF_FFF0L, 7);
        WorkRequest wr = new WorkRequest(1, 3, 99, 0x1234, 0x1000_0000L, 4096);

        client.reset();
        assertThat(client.createConnection(spec)).containsExactly(49_152, 49_153);
        long key = client.registerRegion(
                0xFFFF_0000_0000_0000L, 65_536, EnumSet.of(RegionAccess.REMOTE_WRITE, RegionAccess.LOCAL_WRITE));
        client.writeRegion(key, 0x10, new byte[] {1, 2, 3});
        byte[] read = client.readRegion(key, 0x10, 3);
        client.postReceive(wr);
        client.postWrite(wr, 0x2000, 0x55, OptionalLong.of(0xCAFE));
        client.postWrite(wr, 0x2000, 0x55);
        client.postSend(wr);
        client.postRead(wr, 0x3000, 0x66);
        List<DutCompletion> completions = client.pollCompletions(16, Duration.ofMillis(250));
        var counters = client.readCounters();
        Optional<List<PathState>> paths = client.pathStatus(1);
        client.invalidateRegion(key);
        client.destroyConnection(1);

        assertThat(key).isEqualTo(305_419_896L);
        assertThat(read).containsExactly(7, 8, 9);
        assertThat(completions)
                .containsExactly(
                        new DutCompletion(7, 1, 0, 0, CompletionType.WRITE, CompletionStatus.SUCCESS, 4096, 0),
                        new DutCompletion(
                                8, 1, 0, 1, CompletionType.RECEIVE_IMMEDIATE, CompletionStatus.SUCCESS, 10, 0xCAFE));
        assertThat(counters).containsEntry(DutCounters.RX_BAD_CRC, 3L).containsEntry("x_vendor", 1L);
        assertThat(paths)
                .as("srttNs is optional: absent, it reads as empty")
                .contains(List.of(
                        new PathState(0, 49_152, true, 12, 12, OptionalLong.empty()),
                        new PathState(1, 49_153, false, 7, 5, OptionalLong.of(40_000_000))));
        List<String> args = new ArrayList<>();
        for (JsonNode request : agent.requests()) {
            args.add(request.get("op").asText() + " " + (request.has("args") ? request.get("args") : "-"));
        }
        assertThat(args)
                .containsExactly(
                        "reset -",
                        "create_connection {\"localId\":1,\"peerId\":2,\"peerAddress\":\"127.0.0.1\",\"peerPort\":5000,\"paths\":2,"
                                + "\"streams\":4,\"initialSendPsn\":4294967280,\"initialReceivePsn\":7}",
                        "register_region {\"address\":\"0xffff000000000000\",\"length\":65536,"
                                + "\"access\":[\"LOCAL_WRITE\",\"REMOTE_WRITE\"]}",
                        "write_region {\"key\":305419896,\"address\":\"0x10\",\"data\":\"AQID\"}",
                        "read_region {\"key\":305419896,\"address\":\"0x10\",\"length\":3}",
                        "post_receive {\"connection\":1,\"stream\":3,\"key\":4660,\"address\":\"0x10000000\",\"length\":4096,"
                                + "\"wrId\":99}",
                        "post_write {\"connection\":1,\"stream\":3,\"key\":4660,\"address\":\"0x10000000\",\"length\":4096,"
                                + "\"wrId\":99,\"remoteAddress\":\"0x2000\",\"remoteKey\":85,\"immediate\":51966}",
                        "post_write {\"connection\":1,\"stream\":3,\"key\":4660,\"address\":\"0x10000000\",\"length\":4096,"
                                + "\"wrId\":99,\"remoteAddress\":\"0x2000\",\"remoteKey\":85}",
                        "post_send {\"connection\":1,\"stream\":3,\"key\":4660,\"address\":\"0x10000000\",\"length\":4096,"
                                + "\"wrId\":99}",
                        "post_read {\"connection\":1,\"stream\":3,\"key\":4660,\"address\":\"0x10000000\",\"length\":4096,"
                                + "\"wrId\":99,\"remoteAddress\":\"0x3000\",\"remoteKey\":102}",
                        "poll_completions {\"max\":16,\"waitMs\":250}",
                        "read_counters -",
                        "path_status {\"connection\":1}",
                        "invalidate_region {\"key\":305419896}",
                        "destroy_connection {\"localId\":1}");
        assertThat(agent.requests())
                .extracting(r -> r.get("id").asLong())
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L);
    }

    @Test
    void shouldSendTheTokenWithEveryRequest() throws Exception {
        agent = new FakeAgent(FakeAgent.succeedWith("{}"));
        client = JsonLineControlClient.connect(new ControlEndpoint("127.0.0.1", agent.port(), Optional.of(TOKEN)));

        client.reset();
        client.invalidateRegion(5);

        assertThat(agent.requests()).extracting(r -> r.get("token").asText()).containsExactly(TOKEN, TOKEN);
    }

    @ParameterizedTest
    @EnumSource(
            value = DutErrorCode.class,
            names = {"MALFORMED_RESPONSE", "TRANSPORT"},
            mode = EnumSource.Mode.EXCLUDE)
    void shouldMapEveryAgentErrorCode(DutErrorCode code) throws Exception {
        connect(FakeAgent.failWith(code.wireName(), "it went wrong", "args.length"));

        DutControlException e = catchThrowableOfType(
                DutControlException.class, () -> client.postSend(new WorkRequest(1, 0, 1, 2, 3, 4)));

        assertThat(e.code()).isEqualTo(code);
        assertThat(e.op()).isEqualTo("post_send");
        assertThat(e.detail()).isEqualTo("it went wrong");
        assertThat(e.field()).contains("args.length");
        assertThat(e).hasMessage("post_send: " + code.wireName() + ": it went wrong (field args.length)");
    }

    @Test
    void shouldAcceptANullIdOnAParseError() throws Exception {
        connect(request ->
                "{\"v\":1,\"id\":null,\"ok\":false,\"error\":{\"code\":\"parse_error\",\"message\":\"bad\"}}");

        DutControlException e = catchThrowableOfType(DutControlException.class, () -> client.reset());

        assertThat(e.code()).isEqualTo(DutErrorCode.PARSE_ERROR);
        assertThat(e.field()).isEmpty();
    }

    @Test
    void shouldReportAMissingOptionalOperationAsEmpty() throws Exception {
        connect(FakeAgent.failWith("unknown_op", "path_status is optional", null));

        assertThat(client.pathStatus(1)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        not JSON                  | hello there                                                          | -        | response is not JSON
        not an object             | [1, 2]                                                               | -        | not a JSON object
        two objects on a line     | {"v":1,"id":ID,"ok":true} {}                                          | -        | not JSON
        missing version           | {"id":ID,"ok":true,"result":{}}                                       | v        | missing
        wrong version             | {"v":2,"id":ID,"ok":true,"result":{}}                                 | v        | must be 1
        missing ok                | {"v":1,"id":ID,"result":{}}                                           | ok       | missing
        ok not boolean            | {"v":1,"id":ID,"ok":"yes"}                                            | ok       | must be true or false
        wrong id                  | {"v":1,"id":999,"ok":true,"result":{}}                                | id       | must be ID
        result not an object      | {"v":1,"id":ID,"ok":true,"result":[]}                                 | result   | must be an object
        key missing               | {"v":1,"id":ID,"ok":true,"result":{}}                                 | result.key | missing
        key as a string           | {"v":1,"id":ID,"ok":true,"result":{"key":"7"}}                        | result.key | must be an integer
        key beyond 32 bits        | {"v":1,"id":ID,"ok":true,"result":{"key":4294967296}}                 | result.key | must be 0 to 4294967295
        key as a fraction         | {"v":1,"id":ID,"ok":true,"result":{"key":1.5}}                        | result.key | must be an integer
        error without code        | {"v":1,"id":ID,"ok":false,"error":{"message":"x"}}                    | error.code | missing
        unknown error code        | {"v":1,"id":ID,"ok":false,"error":{"code":"oops","message":"x"}}      | error.code | unknown code "oops"
        """)
    void shouldRejectMalformedResponsesNamingTheField(String name, String response, String field, String problem)
            throws Exception {
        connect(request -> response.replace("ID", request.get("id").toString()));

        DutControlException e = catchThrowableOfType(
                DutControlException.class, () -> client.registerRegion(0, 16, Set.of(RegionAccess.REMOTE_WRITE)));

        assertThat(e.code()).isEqualTo(DutErrorCode.MALFORMED_RESPONSE);
        assertThat(e.field()).isEqualTo("-".equals(field) ? Optional.empty() : Optional.of(field));
        assertThat(e.detail()).contains(problem.replace("ID", "1"));
    }

    @Test
    void shouldRefuseFurtherCallsAfterAResponseForAnotherRequest() throws Exception {
        connect(request -> "{\"v\":1,\"id\":42,\"ok\":true,\"result\":{}}");
        assertThatThrownBy(() -> client.reset()).isInstanceOf(DutControlException.class);

        DutControlException e = catchThrowableOfType(DutControlException.class, () -> client.reset());

        assertThat(e.code()).isEqualTo(DutErrorCode.TRANSPORT);
        assertThat(e.detail()).contains("response id 42 did not match request id 1");
        assertThat(agent.requests()).hasSize(1);
    }

    @Test
    void shouldCheckResultShapes() throws Exception {
        connect(FakeAgent.succeedWith("{\"localId\":1,\"entropy\":[49152]}"));
        ConnectionSpec twoPaths = ConnectionSpec.of(1, 2, InetAddress.getLoopbackAddress(), 5000, 2, 1);

        DutControlException e =
                catchThrowableOfType(DutControlException.class, () -> client.createConnection(twoPaths));

        assertThat(e.code()).isEqualTo(DutErrorCode.MALFORMED_RESPONSE);
        assertThat(e)
                .hasMessage("create_connection: malformed_response: must hold one UDP source port per path (2), "
                        + "found 1 (field result.entropy)");
    }

    @Test
    void shouldRejectACompletionOfUnknownStatus() throws Exception {
        connect(FakeAgent.succeedWith("{\"completions\":[{\"wrId\":1,\"connection\":1,\"stream\":0,\"msn\":0,"
                + "\"type\":\"WRITE\",\"status\":\"MAYBE\",\"length\":1}]}"));

        DutControlException e =
                catchThrowableOfType(DutControlException.class, () -> client.pollCompletions(1, Duration.ZERO));

        assertThat(e.field()).contains("result.completions[0].status");
        assertThat(e.detail()).startsWith("unknown value \"MAYBE\"");
    }

    @Test
    void shouldTimeOutASilentAgentAndStayFailed() throws Exception {
        agent = new FakeAgent(request -> null);
        client = JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", agent.port()), SHORT, SHORT);

        long startNs = System.nanoTime();
        DutControlException e = catchThrowableOfType(DutControlException.class, () -> client.reset());

        assertThat(Duration.ofNanos(System.nanoTime() - startNs)).isLessThan(Duration.ofSeconds(5));
        assertThat(e.code()).isEqualTo(DutErrorCode.TRANSPORT);
        assertThat(e.detail()).contains("no response from 127.0.0.1:" + agent.port() + " within 300 ms");
        assertThat(catchThrowableOfType(DutControlException.class, () -> client.hello())
                        .code())
                .isEqualTo(DutErrorCode.TRANSPORT);
    }

    @Test
    void shouldReportARefusedConnection() throws Exception {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }

        DutControlException e = catchThrowableOfType(
                DutControlException.class,
                () -> JsonLineControlClient.connect(ControlEndpoint.of("127.0.0.1", closedPort), SHORT, SHORT));

        assertThat(e.code()).isEqualTo(DutErrorCode.TRANSPORT);
        assertThat(e.op()).isEqualTo("connect");
        assertThat(e.detail()).contains("cannot connect to the DUT agent at 127.0.0.1:" + closedPort);
    }

    @Test
    void shouldCutRegionTransfersToFitTheLineLimit() throws Exception {
        List<String> addresses = new ArrayList<>();
        client = new JsonLineControlClient(line -> {
            JsonNode request = FakeAgent.JSON.readTree(line);
            assertThat(line.length() + 1).isLessThanOrEqualTo(JsonLineControlClient.MAX_LINE_BYTES);
            JsonNode args = request.get("args");
            addresses.add(request.get("op").asText() + "@" + args.get("address").asText());
            String result = "{}";
            if (request.get("op").asText().equals("read_region")) {
                byte[] data = new byte[args.get("length").asInt()];
                result = "{\"data\":\"" + Base64.getEncoder().encodeToString(data) + "\"}";
            }
            return "{\"v\":1,\"id\":" + request.get("id") + ",\"ok\":true,\"result\":" + result + "}";
        });
        byte[] big = new byte[JsonLineControlClient.REGION_CHUNK_BYTES * 2 + 10];

        client.writeRegion(1, 0x1000, big);
        byte[] back = client.readRegion(1, 0x1000, big.length);

        assertThat(back).hasSize(big.length);
        assertThat(addresses)
                .containsExactly(
                        "write_region@0x1000",
                        "write_region@0x81000",
                        "write_region@0x101000",
                        "read_region@0x1000",
                        "read_region@0x81000",
                        "read_region@0x101000");
    }

    @Test
    void shouldRefuseArgumentsOutsideTheProtocolRanges() {
        client = new JsonLineControlClient(line -> {
            throw new AssertionError("nothing may be sent: " + line);
        });

        assertThatThrownBy(() -> client.pollCompletions(0, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> client.pollCompletions(1, Duration.ofSeconds(11)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkRequest(1, 70_000, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ConnectionSpec.of(1L << 32, 1, InetAddress.getLoopbackAddress(), 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private void connect(Function<JsonNode, String> responder) throws Exception {
        agent = new FakeAgent(responder);
        client = JsonLineControlClient.connect(
                ControlEndpoint.of("127.0.0.1", agent.port()), SHORT, Duration.ofSeconds(5));
    }

    private static String respond(JsonNode request) {
        String result = switch (request.get("op").asText()) {
            case "create_connection" -> "{\"localId\":1,\"entropy\":[49152,49153]}";
            case "register_region" -> "{\"key\":305419896}";
            case "read_region" -> "{\"data\":\"BwgJ\"}";
            case "poll_completions" ->
                "{\"completions\":[{\"wrId\":7,\"connection\":1,\"stream\":0,\"msn\":0,"
                        + "\"type\":\"WRITE\",\"status\":\"SUCCESS\",\"length\":4096,\"immediate\":0},{\"wrId\":8,"
                        + "\"connection\":1,\"stream\":0,\"msn\":1,\"type\":\"RECEIVE_IMMEDIATE\",\"status\":\"SUCCESS\","
                        + "\"length\":10,\"immediate\":51966}]}";
            case "read_counters" -> "{\"counters\":{\"rx_bad_crc\":3,\"x_vendor\":1}}";
            case "path_status" ->
                "{\"paths\":[{\"pathId\":0,\"entropy\":49152,\"healthy\":true,\"nextPsn\":12,"
                        + "\"oldestUnackedPsn\":12},{\"pathId\":1,\"entropy\":49153,\"healthy\":false,"
                        + "\"nextPsn\":7,\"oldestUnackedPsn\":5,\"srttNs\":40000000}]}";
            default -> "{}";
        };
        return "{\"v\":1,\"id\":" + request.get("id") + ",\"ok\":true,\"result\":" + result + "}";
    }
}

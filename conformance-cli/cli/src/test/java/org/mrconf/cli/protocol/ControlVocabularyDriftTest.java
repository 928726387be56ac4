package org.mrconf.cli.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.agent.AgentConfig;
import org.mrconf.agent.ControlAgent;
import org.mrconf.agent.ErrorCode;
import org.mrconf.agent.PeerDirectory;
import org.mrconf.dut.ConnectionSpec;
import org.mrconf.dut.DutCounters;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.dut.JsonLineControlClient;
import org.mrconf.dut.RegionAccess;
import org.mrconf.dut.WorkRequest;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/**
 * The control protocol cannot drift: the reference agent ({@code reference-impl}), the suite's client
 * ({@code spec-cases}) and {@code docs/dut-control-protocol.md} must name the same operations, error codes,
 * completion statuses, completion types and standard counters. The two sides share no code on purpose (the suite
 * shares nothing with what it tests), so this module, which sees both, is where they are held in step. The
 * operations are taken from what the client really sends: it is driven through every {@code DutControl} call
 * against an in-process agent, and the agent must answer each without {@code unknown_op}.
 */
class ControlVocabularyDriftTest {
    private static final Path DOCUMENT =
            Path.of(System.getProperty("mrconf.root", "../.."), "docs", "dut-control-protocol.md");
    private static final Pattern OPERATION = Pattern.compile("^### (\\w+)( \\(optional\\))?\\s*$");
    private static final Pattern FIRST_CELL = Pattern.compile("^\\| `(\\w+)` \\|");
    private static final Pattern UPPER_NAME = Pattern.compile("`([A-Z][A-Z_]+)`");
    private static final Pattern OP_FIELD = Pattern.compile("\"op\":\"(\\w+)\"");

    private List<String> document;

    @BeforeEach
    void read() throws Exception {
        document = Files.readAllLines(DOCUMENT, StandardCharsets.UTF_8);
    }

    @Test
    void shouldNameTheSameOperationsEverywhere() throws Exception {
        final Set<String> documented = new LinkedHashSet<>(section("## 4 ", OPERATION, 1));
        final Set<String> sentByClient = operationsTheClientSends();

        assertThat(documented).as("document section 4").containsExactlyElementsOf(ControlAgent.OPERATIONS);
        assertThat(sentByClient)
                .as("operations JsonLineControlClient sends, one DutControl call each")
                .containsExactlyInAnyOrderElementsOf(documented);
    }

    @Test
    void shouldNameTheSameErrorCodesEverywhere() {
        final Set<String> documented = new TreeSet<>(tableAfter("| Code | When |"));
        final Set<String> agent = Arrays.stream(ErrorCode.values())
                .map(ErrorCode::wireName)
                .collect(Collectors.toCollection(TreeSet::new));
        final Set<String> client = Arrays.stream(DutErrorCode.values())
                .map(DutErrorCode::wireName)
                .filter(Objects::nonNull) // the client-side failures no agent sends
                .collect(Collectors.toCollection(TreeSet::new));

        assertThat(agent).as("agent ErrorCode").isEqualTo(documented);
        assertThat(client).as("suite DutErrorCode").isEqualTo(documented);
    }

    @Test
    void shouldNameTheSameCompletionStatusesEverywhere() {
        final Set<String> documented = new TreeSet<>(tableAfter("| Status | When |"));

        assertThat(names(org.mrconf.transport.WorkCompletionStatus.class))
                .as("agent (reference transport) statuses")
                .isEqualTo(documented);
        assertThat(names(org.mrconf.dut.CompletionStatus.class))
                .as("suite statuses")
                .isEqualTo(documented);
    }

    @Test
    void shouldNameTheSameCompletionTypesEverywhere() {
        final String row = document.stream()
                .filter(line -> line.startsWith("| `type` |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no `type` row in the poll_completions fields"));
        final Set<String> documented = new TreeSet<>();
        final Matcher name = UPPER_NAME.matcher(row);
        while (name.find()) {
            documented.add(name.group(1));
        }

        assertThat(names(org.mrconf.transport.WorkCompletionType.class))
                .as("agent (reference transport) types")
                .isEqualTo(documented);
        assertThat(names(org.mrconf.dut.CompletionType.class)).as("suite types").isEqualTo(documented);
    }

    @Test
    void shouldNameTheSameStandardCountersEverywhere() throws Exception {
        final Set<String> documented = new TreeSet<>(tableAfter("| Counter | Spec clause | Counts |"));

        assertThat(new TreeSet<>(ControlAgent.STANDARD_COUNTERS)).as("agent").isEqualTo(documented);
        assertThat(new TreeSet<>(DutCounters.STANDARD)).as("suite").isEqualTo(documented);
        try (JsonLineControlClient client = new JsonLineControlClient(newAgent()::handle)) {
            assertThat(client.readCounters().keySet())
                    .as("read_counters of the agent, through the client")
                    .containsAll(documented);
        }
    }

    /** Drives the client through every DutControl operation against an in-process agent, recording the ops. */
    private static Set<String> operationsTheClientSends() throws Exception {
        final ControlAgent agent = newAgent();
        final Set<String> sent = new LinkedHashSet<>();
        final List<String> unknown = new ArrayList<>();
        try (JsonLineControlClient client = new JsonLineControlClient(line -> {
            final Matcher op = OP_FIELD.matcher(line.replace(" ", ""));
            if (op.find()) {
                sent.add(op.group(1));
            }
            final String response = agent.handle(line);
            if (response.contains("\"unknown_op\"")) {
                unknown.add(line);
            }
            return response;
        })) {
            client.hello();
            client.reset();
            client.createConnection(ConnectionSpec.of(1, 10, InetAddress.getByName("192.0.2.10"), 4796, 2, 1));
            final long key = client.registerRegion(
                    0x2000_0000L,
                    1 << 16,
                    EnumSet.of(RegionAccess.LOCAL_WRITE, RegionAccess.REMOTE_WRITE, RegionAccess.REMOTE_READ));
            client.writeRegion(key, 0x2000_0000L, new byte[] {1, 2, 3});
            client.readRegion(key, 0x2000_0000L, 3);
            client.postReceive(new WorkRequest(1, 0, 1, key, 0x2000_0000L, 256));
            client.postWrite(new WorkRequest(1, 0, 2, key, 0x2000_0000L, 256), 0x7000_0000L, 5);
            client.postSend(new WorkRequest(1, 0, 3, key, 0x2000_0000L, 256));
            client.postRead(new WorkRequest(1, 0, 4, key, 0x2000_1000L, 256), 0x7000_0000L, 5);
            client.pollCompletions(16, Duration.ZERO);
            client.readCounters();
            client.pathStatus(1);
            final long spare = client.registerRegion(0x3000_0000L, 4096, EnumSet.noneOf(RegionAccess.class));
            client.invalidateRegion(spare);
            client.destroyConnection(1);
        }
        assertThat(unknown).as("requests the agent did not know").isEmpty();
        return sent;
    }

    private static ControlAgent newAgent() {
        final Endpoint endpoint = new Endpoint(EndpointConfig.defaults(), (d, s, e, b, o, l) -> {}, NanoClock.system());
        return new ControlAgent(
                endpoint, new SinglePeer(), AgentConfig.builder().build());
    }

    /** The backticked first cells of the table whose header line is {@code header}. */
    private List<String> tableAfter(final String header) {
        final int start = document.indexOf(header);
        assertThat(start).as("the document has the table %s", header).isNotNegative();
        final List<String> names = new ArrayList<>();
        for (int i = start + 2; i < document.size() && document.get(i).startsWith("|"); i++) {
            final Matcher cell = FIRST_CELL.matcher(document.get(i));
            if (cell.find()) {
                names.add(cell.group(1));
            }
        }
        return names;
    }

    /** Group {@code group} of every line of the section starting with {@code sectionPrefix} that matches. */
    private List<String> section(final String sectionPrefix, final Pattern pattern, final int group) {
        final List<String> found = new ArrayList<>();
        boolean inside = false;
        for (final String line : document) {
            if (line.startsWith("## ")) {
                inside = line.startsWith(sectionPrefix);
            } else if (inside) {
                final Matcher matcher = pattern.matcher(line);
                if (matcher.matches()) {
                    found.add(matcher.group(group));
                }
            }
        }
        return found;
    }

    private static <E extends Enum<E>> Set<String> names(final Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Every peer address is node 1: enough for an agent that never sends a packet anywhere. */
    private static final class SinglePeer implements PeerDirectory {
        @Override
        public int acquire(final InetAddress address, final int port) {
            return 1;
        }

        @Override
        public void release(final int node) {}
    }
}

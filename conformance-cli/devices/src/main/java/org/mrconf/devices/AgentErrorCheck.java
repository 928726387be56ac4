package org.mrconf.devices;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.mrconf.devices.ControlErrorTable.Needs;
import org.mrconf.devices.ControlErrorTable.Row;
import org.mrconf.dut.LineTransport;

/**
 * Sends the bad requests of {@link ControlErrorTable} to a control agent and compares each answer's {@code
 * error.code}, {@code error.field} (where the document fixes it) and {@code id} with the document. It resets the
 * device first, registers one region of 4 KiB and creates one connection for the rows that need them, and resets the
 * device again at the end, so that nothing it made, or that a misbehaving agent accepted, outlives it.
 */
public final class AgentErrorCheck {
    /** How a row went. */
    public enum Status {
        /** The agent answered as the document says. */
        OK,
        /** The agent answered otherwise. */
        DIFFERS,
        /** The row was not sent: what it needs is not there (its detail says what). */
        NOT_SENT
    }

    /** One row's outcome; {@code detail} is the answer for OK, what differs for DIFFERS, the reason for NOT_SENT. */
    public record Outcome(Row row, Status status, String detail) {}

    /**
     * What the check knows about the agent.
     *
     * @param token      the token the profile gives, sent with every request
     * @param overTcp    whether the lines go over TCP, where section 1's 1 MiB limit applies
     * @param claimsRead whether {@code hello} claims the read profile ({@code post_read} offered)
     * @param tester     the tester's address and MetaRoCE port, the peer of the check's connection
     */
    public record Agent(Optional<String> token, boolean overTcp, boolean claimsRead, InetSocketAddress tester) {}

    static final long BASE = 0x1000_0000L;
    static final int LENGTH = 4096;
    /** The check's connection id; the one after it is unknown to the agent, which the check has just reset. */
    static final long CONNECTION = 0x4D43;

    private static final int DEFAULT_PEER_PORT = 4796;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_LINE_BYTES = 1 << 20;

    private final LineTransport lines;
    private final Agent agent;
    private int nextId = 1;
    private String lost;

    private AgentErrorCheck(final LineTransport lines, final Agent agent) {
        this.lines = lines;
        this.agent = agent;
    }

    /** Runs every row of {@link ControlErrorTable} against the agent behind {@code lines}. */
    public static List<Outcome> run(final LineTransport lines, final Agent agent) {
        return new AgentErrorCheck(lines, agent).run();
    }

    private List<Outcome> run() {
        final Set<Needs> present = EnumSet.noneOf(Needs.class);
        if (agent.overTcp()) {
            present.add(Needs.TCP);
        }
        if (agent.token().isPresent()) {
            present.add(Needs.TOKEN);
        }
        present.add(agent.claimsRead() ? Needs.READ : Needs.NO_READ);
        final Map<String, String> values = new HashMap<>();
        String regionProblem = null;
        String connectionProblem = null;
        setUp("reset", "{\"v\":1,\"id\":$ID,\"op\":\"reset\"}", values);
        final Optional<String> key = setUp(
                "register_region",
                "{\"v\":1,\"id\":$ID,\"op\":\"register_region\",\"args\":{\"address\":\"" + u64(BASE) + "\",\"length\":"
                        + LENGTH + ",\"access\":[\"LOCAL_WRITE\"]}}",
                values);
        long regionKey = 1;
        if (key.isPresent()) {
            final JsonNode result = parse(key.get()).path("result").path("key");
            if (result.canConvertToLong()) {
                regionKey = result.longValue();
                present.add(Needs.REGION);
            } else {
                regionProblem = "register_region of " + LENGTH + " bytes answered without a key: " + key.get();
            }
        } else {
            regionProblem = "register_region of " + LENGTH + " bytes at " + u64(BASE) + " failed: " + values.get("!");
        }
        values.put("$OTHER_KEY", Long.toString(regionKey == 1 ? 2 : 1));
        values.put("$KEY", Long.toString(regionKey));
        values.put("$BASE", u64(BASE));
        values.put("$END", u64(BASE + LENGTH));
        values.put("$NEAR_END", u64(BASE + LENGTH - 1));
        values.put("$BEFORE_BASE", u64(BASE - 1));
        values.put("$AFTER_END", u64(BASE + LENGTH + 1));
        values.put("$CONN", Long.toString(CONNECTION));
        values.put("$OTHER_CONN", Long.toString(CONNECTION + 1));
        values.put("$PEER_ADDRESS", agent.tester().getAddress().getHostAddress());
        // A profile may leave the tester's port to the link; the connection sends nothing, so the default will do.
        values.put(
                "$PEER_PORT",
                Integer.toString(
                        agent.tester().getPort() == 0
                                ? DEFAULT_PEER_PORT
                                : agent.tester().getPort()));
        values.put("$WRONG_TOKEN", agent.token().map(t -> t + "-wrong").orElse("wrong-token-0123456789"));
        values.put("$HUGE", "a".repeat(MAX_LINE_BYTES));
        if (present.contains(Needs.REGION)) {
            final Optional<String> created = setUp(
                    "create_connection",
                    fill(
                            "{\"v\":1,\"id\":$ID,\"op\":\"create_connection\",\"args\":{\"localId\":$CONN,\"peerId\":$CONN,"
                                    + "\"peerAddress\":\"$PEER_ADDRESS\",\"peerPort\":$PEER_PORT,\"paths\":1,"
                                    + "\"streams\":1}}",
                            values),
                    values);
            if (created.isPresent()) {
                present.add(Needs.CONNECTION);
            } else {
                connectionProblem = "create_connection of a connection of 1 path and 1 stream to "
                        + values.get("$PEER_ADDRESS") + " port " + values.get("$PEER_PORT") + " failed: "
                        + values.get("!");
            }
        } else {
            connectionProblem = "no region";
        }
        final List<Outcome> outcomes = new ArrayList<>();
        for (final Row row : ControlErrorTable.rows()) {
            outcomes.add(send(row, present, values, regionProblem, connectionProblem));
        }
        setUp("reset", "{\"v\":1,\"id\":$ID,\"op\":\"reset\"}", values);
        return List.copyOf(outcomes);
    }

    private Outcome send(
            final Row row,
            final Set<Needs> present,
            final Map<String, String> values,
            final String regionProblem,
            final String connectionProblem) {
        if (lost != null) {
            return new Outcome(row, Status.NOT_SENT, "the control connection was lost: " + lost);
        }
        for (final Needs need : row.needs()) {
            if (!present.contains(need)) {
                return new Outcome(
                        row,
                        Status.NOT_SENT,
                        switch (need) {
                            case TCP -> "the agent is in this process: no 1 MiB line limit";
                            case TOKEN -> "the profile gives no token";
                            case REGION -> regionProblem;
                            case CONNECTION -> connectionProblem == null ? regionProblem : connectionProblem;
                            case READ -> "the device does not claim the read profile";
                            case NO_READ -> "the device claims the read profile";
                        });
            }
        }
        final String id = "dut-check-" + nextId++;
        final String line = withToken(fill(row.line().replace("$ID", "\"" + id + "\""), values));
        final String response;
        try {
            response = lines.exchange(line);
        } catch (final IOException e) {
            lost = String.valueOf(e.getMessage());
            return new Outcome(row, Status.DIFFERS, "expected " + row.answer() + ", got no answer: " + lost);
        }
        final JsonNode answer = parse(response);
        if (!answer.isObject() || !answer.path("ok").isBoolean()) {
            return new Outcome(
                    row,
                    Status.DIFFERS,
                    "expected " + row.answer() + ", got a line that is not a response: " + cut(response));
        }
        final String got;
        final String gotField;
        if (answer.get("ok").booleanValue()) {
            got = ControlErrorTable.ACCEPTED;
            gotField = null;
        } else {
            got = answer.path("error").path("code").asText("(no error.code)");
            gotField = answer.path("error").hasNonNull("field")
                    ? answer.path("error").path("field").asText()
                    : null;
        }
        final List<String> differences = new ArrayList<>();
        if (!got.equals(row.code()) || row.field() != null && !row.field().equals(gotField)) {
            differences.add("expected " + row.answer() + ", got "
                    + (gotField == null
                            ? got + (row.field() == null ? "" : " without error.field")
                            : got + " on " + gotField));
        }
        final JsonNode gotId = answer.get("id");
        if (row.echoesId()
                && !(gotId != null && gotId.isTextual() && gotId.textValue().equals(id))) {
            differences.add("expected id \"" + id + "\" (the request's), got " + gotId);
        } else if (!row.echoesId() && gotId != null && !gotId.isNull()) {
            differences.add("expected id null, got " + gotId);
        }
        return differences.isEmpty()
                ? new Outcome(row, Status.OK, row.answer())
                : new Outcome(row, Status.DIFFERS, String.join("; ", differences));
    }

    /** Sends a request the check needs; its response line when it succeeded, else empty (the reason in "!"). */
    private Optional<String> setUp(final String what, final String template, final Map<String, String> values) {
        if (lost != null) {
            values.put("!", "the control connection was lost: " + lost);
            return Optional.empty();
        }
        final String line = withToken(template.replace("$ID", "\"dut-check-" + what + "-" + nextId++ + "\""));
        try {
            final String response = lines.exchange(line);
            final JsonNode answer = parse(response);
            if (answer.path("ok").asBoolean(false)) {
                return Optional.of(response);
            }
            values.put("!", cut(response));
        } catch (final IOException e) {
            lost = String.valueOf(e.getMessage());
            values.put("!", lost);
        }
        return Optional.empty();
    }

    private String withToken(final String line) {
        if (agent.token().isEmpty() || !line.startsWith("{") || line.contains("\"token\"")) {
            return line;
        }
        return "{\"token\":" + new TextNode(agent.token().get()) + "," + line.substring(1);
    }

    private static String fill(final String template, final Map<String, String> values) {
        String line = template;
        for (final Map.Entry<String, String> value : values.entrySet()) {
            if (value.getKey().startsWith("$")) {
                line = line.replace(value.getKey(), value.getValue());
            }
        }
        return line;
    }

    private static JsonNode parse(final String line) {
        try {
            final JsonNode node = line == null ? null : JSON.readTree(line);
            return node == null ? JSON.missingNode() : node;
        } catch (final JsonProcessingException e) {
            return JSON.missingNode();
        }
    }

    private static String u64(final long value) {
        return "0x" + Long.toHexString(value);
    }

    private static String cut(final String line) {
        return line == null ? "nothing" : line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }
}

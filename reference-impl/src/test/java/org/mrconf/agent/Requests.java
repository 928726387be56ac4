package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.List;

/** Builds control-protocol request lines and reads response lines, for the agent and soft DUT tests. */
public final class Requests {
    public static final ObjectMapper JSON = new ObjectMapper();

    private Requests() {}

    /** An {@code args} object from alternating names and values (numbers, strings, booleans, lists). */
    public static ObjectNode args(final Object... namesAndValues) {
        final ObjectNode args = JSON.createObjectNode();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            args.set((String) namesAndValues[i], JSON.valueToTree(namesAndValues[i + 1]));
        }
        return args;
    }

    /** A request line with {@code v} 1. */
    public static String line(final Object id, final String op, final ObjectNode args) {
        final ObjectNode request = JSON.createObjectNode();
        request.put("v", 1);
        request.set("id", JSON.valueToTree(id));
        request.put("op", op);
        request.set("args", args);
        return write(request);
    }

    /** The same request carrying a token. */
    public static String lineWithToken(final Object id, final String op, final ObjectNode args, final String token) {
        final ObjectNode request = (ObjectNode) parse(line(id, op, args));
        request.put("token", token);
        return write(request);
    }

    /** Sends one request to {@code agent} and parses its response. */
    public static JsonNode call(final ControlAgent agent, final long id, final String op, final ObjectNode args) {
        return parse(agent.handle(line(id, op, args)));
    }

    /** The result of a response that must be a success, failing the test with the response otherwise. */
    public static JsonNode result(final String op, final JsonNode response) {
        assertThat(response.get("ok").asBoolean())
                .as("%s answered %s", op, response)
                .isTrue();
        return response.get("result");
    }

    public static JsonNode parse(final String line) {
        try {
            return JSON.readTree(line);
        } catch (final JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A u64 argument. */
    public static String hex(final long value) {
        return "0x" + Long.toHexString(value);
    }

    public static List<String> access(final String... flags) {
        return List.of(flags);
    }

    /** The completions array of a poll result, as a list. */
    public static List<JsonNode> completions(final JsonNode pollResult) {
        final ArrayNode array = (ArrayNode) pollResult.get("completions");
        final java.util.ArrayList<JsonNode> list = new java.util.ArrayList<>();
        array.forEach(list::add);
        return list;
    }

    private static String write(final ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (final JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

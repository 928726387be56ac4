package org.mrconf.agent;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The envelope of the control protocol (section 2): parsing a request line into a JSON object, checking
 * its version, and formatting success and error response lines. Stateless.
 */
final class Envelope {
    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .build();
    static final JsonNodeFactory JSON = MAPPER.getNodeFactory();

    private Envelope() {}

    /** The request line as a JSON object, or {@code parse_error}. */
    static ObjectNode parse(final String line) {
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

    /** Checks {@code v}: {@code unsupported_version} unless it is the version this agent speaks. */
    static void checkVersion(final JsonNode v) {
        if (v == null
                || !v.isIntegralNumber() // 1.0 and 1e0 are not integers (section 2, Numbers)
                || !v.bigIntegerValue().equals(java.math.BigInteger.valueOf(ControlAgent.PROTOCOL_VERSION))) {
            throw new RequestError(
                    ErrorCode.UNSUPPORTED_VERSION,
                    "v must be a protocol version this agent speaks: [" + ControlAgent.PROTOCOL_VERSION + "]",
                    "v");
        }
    }

    static String successResponse(final JsonNode id, final ObjectNode result) {
        final ObjectNode response = JSON.objectNode();
        response.put("v", ControlAgent.PROTOCOL_VERSION);
        response.set("id", id);
        response.put("ok", true);
        response.set("result", result);
        return write(response);
    }

    static String errorResponse(final JsonNode id, final RequestError e) {
        final ObjectNode response = JSON.objectNode();
        response.put("v", ControlAgent.PROTOCOL_VERSION);
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
}

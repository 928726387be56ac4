package org.mrconf.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.mrconf.net.NanoClock;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;

/**
 * Coverage-guided fuzzing of the control-request parser and dispatcher: every line, however malformed,
 * gets exactly one response line that is a JSON object with {@code v}, {@code id} and {@code ok}, and
 * nothing escapes as an exception, and no error is {@code internal}. The input is up to 16 request lines run against one agent, so that
 * state built by one (connections, regions) is attacked by the next; seeds are valid requests of every
 * operation. Regression inputs: {@code src/test/resources/org/mrconf/agent/ControlRequestFuzzTestInputs/}.
 */
class ControlRequestFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void everyLineGetsOneWellFormedAnswer(final byte[] input) {
        final Endpoint endpoint = new Endpoint(EndpointConfig.defaults(), (d, s, e, b, o, l) -> {}, NanoClock.system());
        final ControlAgent agent = new ControlAgent(
                endpoint,
                new MapPeers(),
                AgentConfig.builder()
                        .memoryBudget(1 << 20)
                        .connectionLimits(4, 64)
                        .build());
        for (final String line : new String(input, StandardCharsets.UTF_8).split("\n", 16)) {
            final String response = agent.handle(line);

            assertThat(response).doesNotContain("\n");
            final JsonNode json = Requests.parse(response);
            assertThat(json.isObject()).isTrue();
            assertThat(json.get("v").asInt()).isEqualTo(ControlAgent.PROTOCOL_VERSION);
            assertThat(json.has("id")).isTrue();
            assertThat(json.get("ok").isBoolean()).isTrue();
            if (!json.get("ok").asBoolean()) {
                assertThat(json.at("/error/code").asText())
                        .as("a code of section 2 in %s", response)
                        .isNotEqualTo("internal");
            }
        }
    }
}

package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A receive flushed before any SEND used it has no message: the protocol sends msn null. */
class FlushedCompletionTest {
    @Test
    void shouldAcceptANullMsnForAFlushedReceive() throws Exception {
        final JsonLineControlClient client = new JsonLineControlClient(line -> {
            final String id = line.replaceAll(".*\"id\":(\\d+).*", "$1");
            return "{\"v\":1,\"id\":" + id + ",\"ok\":true,\"result\":{\"completions\":[{\"wrId\":5,\"connection\":1,"
                    + "\"stream\":0,\"msn\":null,\"type\":\"RECEIVE\",\"status\":\"FLUSHED\",\"length\":0,\"immediate\":0}]}}";
        });

        final List<DutCompletion> completions = client.pollCompletions(4, Duration.ZERO);

        assertThat(completions).singleElement().satisfies(c -> {
            assertThat(c.msn()).isEqualTo(DutCompletion.NO_MSN);
            assertThat(c.status()).isEqualTo(CompletionStatus.FLUSHED);
        });
    }
}

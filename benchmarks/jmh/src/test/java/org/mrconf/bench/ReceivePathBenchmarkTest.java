package org.mrconf.microbench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The benchmark must measure real placement, not packets the endpoint drops. */
class ReceivePathBenchmarkTest {
    @Test
    void shouldPlaceEveryByteOfABatch() {
        assertThat(new ReceivePathBenchmark().bytesPlacedByOneBatch())
                .isEqualTo((long) ReceivePathBenchmark.BATCH * ReceivePathBenchmark.PAYLOAD);
    }
}

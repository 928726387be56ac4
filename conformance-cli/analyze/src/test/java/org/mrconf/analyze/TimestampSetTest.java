package org.mrconf.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimestampSetTest {
    @Test
    void shouldAgreeWithAPlainMultisetUnderRandomAddsAndRemoves() {
        final TimestampSet set = new TimestampSet(64);
        final Map<Long, Integer> expected = new HashMap<>();
        final SplittableRandom random = new SplittableRandom(5);
        int held = 0;
        for (int step = 0; step < 200_000; step++) {
            // Few distinct values, so probe runs collide, wrap round the table and shift back on removal.
            final long timestamp = random.nextInt(96) * 0x1_0000_0001L;
            if (held < 64 && random.nextBoolean()) {
                set.add(timestamp);
                expected.merge(timestamp & 0xFFFF_FFFFL, 1, Integer::sum);
                held++;
            } else if (expected.getOrDefault(timestamp & 0xFFFF_FFFFL, 0) > 0) {
                set.remove(timestamp);
                expected.merge(timestamp & 0xFFFF_FFFFL, -1, Integer::sum);
                held--;
            } else {
                set.remove(timestamp); // not held: no effect
            }
            final long probe = random.nextInt(96) * 0x1_0000_0001L;
            assertThat(set.contains(probe))
                    .as("step %d, timestamp %d", step, probe & 0xFFFF_FFFFL)
                    .isEqualTo(expected.getOrDefault(probe & 0xFFFF_FFFFL, 0) > 0);
        }
    }

    @Test
    void shouldHoldTimestampZero() {
        final TimestampSet set = new TimestampSet(4);
        assertThat(set.contains(0)).isFalse();
        set.add(0);
        assertThat(set.contains(0)).isTrue();
        set.remove(0);
        assertThat(set.contains(0)).isFalse();
    }
}

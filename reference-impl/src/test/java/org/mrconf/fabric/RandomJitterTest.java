package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RandomJitterTest {
    private static final long MAX_NS = 10_000;
    private static final long SEED = 41L;

    @Test
    void shouldDelayUniformlyWithinTheBound() {
        final RandomJitter jitter = new RandomJitter(MAX_NS, SEED);
        final PacketFate fate = PacketFate.standalone(new byte[10]);
        long sum = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;

        for (int i = 0; i < 100_000; i++) {
            fate.reset((FabricPacket) fate.packet());
            jitter.impair(i, fate);
            final long delay = fate.extraDelayNs();
            sum += delay;
            min = Math.min(min, delay);
            max = Math.max(max, delay);
            assertThat(fate.isDropped()).isFalse();
        }

        assertThat(min).isBetween(0L, 10L);
        assertThat(max).isBetween(MAX_NS - 10, MAX_NS);
        assertThat(sum / 100_000.0).isBetween(MAX_NS / 2.0 - 100, MAX_NS / 2.0 + 100);
    }

    @Test
    void shouldNotDelayWithAZeroBound() {
        final PacketFate fate = PacketFate.standalone(new byte[10]);

        new RandomJitter(0, SEED).impair(0, fate);

        assertThat(fate.extraDelayNs()).isZero();
    }
}

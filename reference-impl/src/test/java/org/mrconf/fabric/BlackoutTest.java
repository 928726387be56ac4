package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BlackoutTest {
    private static final long FROM_NS = 2_000_000;
    private static final long UNTIL_NS = 5_000_000;

    @Test
    void shouldDropFromStartUntilEndExclusive() {
        final Blackout blackout = new Blackout(FROM_NS, UNTIL_NS);

        assertThat(drops(blackout, FROM_NS - 1)).isFalse();
        assertThat(drops(blackout, FROM_NS)).isTrue();
        assertThat(drops(blackout, UNTIL_NS - 1)).isTrue();
        assertThat(drops(blackout, UNTIL_NS)).isFalse();
    }

    @Test
    void shouldNeverEndWhenForever() {
        final Blackout blackout = Blackout.from(FROM_NS);

        assertThat(drops(blackout, Long.MAX_VALUE - 1)).isTrue();
        assertThat(blackout).hasToString("Blackout{fromNs=2000000, untilNs=forever}");
    }

    @Test
    void shouldRejectAnEndBeforeTheStart() {
        assertThatThrownBy(() -> new Blackout(UNTIL_NS, FROM_NS)).isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean drops(final Blackout blackout, final long nowNs) {
        final PacketFate fate = PacketFate.standalone(new byte[10]);
        blackout.impair(nowNs, fate);
        return fate.isDropped();
    }
}

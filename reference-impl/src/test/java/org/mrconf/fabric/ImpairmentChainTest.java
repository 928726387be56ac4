package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ImpairmentChainTest {
    private final List<String> calls = new ArrayList<>();

    @Test
    void shouldApplyPartsInOrder() {
        final LinkImpairment chain =
                recording("first").then(recording("second")).then(recording("third"));
        final PacketFate fate = PacketFate.standalone(new byte[10]);

        chain.impair(0, fate);

        assertThat(calls).containsExactly("first", "second", "third");
    }

    @Test
    void shouldStopAfterADrop() {
        final LinkImpairment chain = LinkImpairment.chain(recording("before"), Blackout.from(0), recording("after"));
        final PacketFate fate = PacketFate.standalone(new byte[10]);

        chain.impair(0, fate);

        assertThat(fate.isDropped()).isTrue();
        assertThat(calls).containsExactly("before");
    }

    @Test
    void shouldAccumulateEffects() {
        final LinkImpairment chain = LinkImpairment.chain(
                new RandomDuplication(1.0, 1), new RandomDuplication(1.0, 2), (nowNs, fate) -> fate.delay(7));
        final PacketFate fate = PacketFate.standalone(new byte[10]);

        chain.impair(0, fate);

        assertThat(fate.duplicates()).isEqualTo(2);
        assertThat(fate.extraDelayNs()).isEqualTo(7);
    }

    private LinkImpairment recording(final String name) {
        return (nowNs, fate) -> calls.add(name);
    }
}

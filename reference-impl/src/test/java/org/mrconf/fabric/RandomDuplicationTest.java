package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RandomDuplicationTest {
    private static final long SEED = 51L;

    @Test
    void shouldDuplicateAboutTheConfiguredFraction() {
        final RandomDuplication duplication = new RandomDuplication(0.05, SEED);
        final PacketFate fate = PacketFate.standalone(new byte[10]);
        int duplicates = 0;

        for (int i = 0; i < 100_000; i++) {
            fate.reset((FabricPacket) fate.packet());
            duplication.impair(i, fate);
            duplicates += fate.duplicates();
            assertThat(fate.isDropped()).isFalse();
        }

        // Expect 5000, standard deviation about 69: five sigmas either side.
        assertThat(duplicates).isBetween(4_655, 5_345);
    }
}

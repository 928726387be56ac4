package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BitCorruptionTest {
    private static final int LENGTH = 64;
    private static final long SEED = 61L;

    @Test
    void shouldFlipExactlyOneBit() {
        final BitCorruption corruption = new BitCorruption(1.0, SEED);
        int lowest = Integer.MAX_VALUE;
        int highest = Integer.MIN_VALUE;

        for (int i = 0; i < 10_000; i++) {
            final byte[] original = pattern(i);
            final PacketFate fate = PacketFate.standalone(original);
            corruption.impair(i, fate);

            int flipped = 0;
            for (int j = 0; j < LENGTH; j++) {
                final int diff = (original[j] ^ fate.byteAt(j)) & 0xFF;
                if (diff != 0) {
                    final int bit = j * 8 + Integer.numberOfTrailingZeros(diff);
                    lowest = Math.min(lowest, bit);
                    highest = Math.max(highest, bit);
                }
                flipped += Integer.bitCount(diff);
            }
            assertThat(flipped).isEqualTo(1);
            assertThat(fate.bitFlips()).isEqualTo(1);
        }

        // Any bit of the payload can be hit.
        assertThat(lowest).isLessThan(8);
        assertThat(highest).isGreaterThanOrEqualTo(LENGTH * 8 - 8);
    }

    @Test
    void shouldCorruptAboutTheConfiguredFraction() {
        final BitCorruption corruption = new BitCorruption(0.1, SEED);
        final PacketFate fate = PacketFate.standalone(new byte[LENGTH]);
        int corrupted = 0;

        for (int i = 0; i < 100_000; i++) {
            fate.reset((FabricPacket) fate.packet());
            corruption.impair(i, fate);
            corrupted += fate.bitFlips();
        }

        // Expect 10000, standard deviation about 95: five sigmas either side.
        assertThat(corrupted).isBetween(9_525, 10_475);
    }

    @Test
    void shouldLeaveAnEmptyPacketAlone() {
        final PacketFate fate = PacketFate.standalone(new byte[0]);

        new BitCorruption(1.0, SEED).impair(0, fate);

        assertThat(fate.bitFlips()).isZero();
    }

    private static byte[] pattern(final int seed) {
        final byte[] bytes = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            bytes[i] = (byte) (seed * 7 + i * 13);
        }
        return bytes;
    }
}

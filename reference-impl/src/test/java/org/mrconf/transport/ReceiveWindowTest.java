package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.PacketEncoder;

class ReceiveWindowTest {
    private final AckFlyweight ack = new PacketEncoder().ack(ByteBuffer.allocate(64), 0);

    @Test
    void shouldClassifyAroundTheWindow() {
        final ReceiveWindow window = new ReceiveWindow(1000);

        assertThat(window.classify(1000)).isEqualTo(ReceiveWindow.Position.NEW);
        assertThat(window.classify(1255)).isEqualTo(ReceiveWindow.Position.NEW);
        assertThat(window.classify(1256)).isEqualTo(ReceiveWindow.Position.BEYOND_WINDOW);
        assertThat(window.classify(999)).isEqualTo(ReceiveWindow.Position.DUPLICATE);
        window.record(1001);
        assertThat(window.classify(1001)).isEqualTo(ReceiveWindow.Position.DUPLICATE);
        assertThat(window.cumulativePsn()).isEqualTo(1000);
        window.record(1000);
        assertThat(window.cumulativePsn()).isEqualTo(1002);
        assertThat(window.hasGap()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 63, 64, 200, 0xFFFF_FF80L, 0xFFFF_FFFFL})
    void shouldReportExactlyTheReceivedPsnsInTheSackBitmap(final long initialPsn) {
        final ReceiveWindow window = new ReceiveWindow(initialPsn);
        final Random random = new Random(initialPsn);
        final BitSet received = new BitSet();
        long cumulative = initialPsn;
        for (int round = 0; round < 2000; round++) {
            final int offset = random.nextInt(256);
            final long psn = (cumulative + offset) & 0xFFFF_FFFFL;
            if (window.classify(psn) == ReceiveWindow.Position.NEW) {
                window.record(psn);
            }
            cumulative = window.cumulativePsn();
            window.writeTo(ack);
            assertThat(ack.cumulativePsn()).isEqualTo(cumulative);
            assertThat(ack.sackBit(0)).isFalse();
            received.clear();
            for (int bit = 1; bit < 256; bit++) {
                if (window.classify((cumulative + bit) & 0xFFFF_FFFFL) == ReceiveWindow.Position.DUPLICATE) {
                    received.set(bit);
                }
                assertThat(ack.sackBit(bit))
                        .as("bit %d at cumulative %d", bit, cumulative)
                        .isEqualTo(received.get(bit));
            }
        }
    }
}

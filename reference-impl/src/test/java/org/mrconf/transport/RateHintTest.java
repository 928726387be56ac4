package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;

/** The receiver's fair-share hint (clause 8.2.4). */
class RateHintTest {
    private static final long INTERVAL = 10_000;
    private final EndpointConfig config = EndpointConfig.builder()
            .lineRate(100_000_000_000L)
            .rateHintInterval(INTERVAL)
            .rateHintUtilization(0.95)
            .build();
    private final List<Connection> connections = new ArrayList<>();
    private final RateHint hint = new RateHint(config, connections);

    @Test
    void shouldGiveALoneSenderTheWholeLink() {
        active(1, 0);
        assertThat(hint.currentMbps(0)).isEqualTo(100_000);
    }

    @Test
    void shouldSplitTheLinkWithHeadroomBetweenActiveSenders() {
        active(8, 0);
        connections.add(connection(-5_000_000)); // idle for ages: not counted
        assertThat(hint.currentMbps(100)).isEqualTo(95_000 / 8);
    }

    @Test
    void shouldScaleDownWhileMarksArriveAndRecoverAfterwards() {
        active(4, 0);
        final long fair = hint.currentMbps(0);
        for (int i = 0; i < 10; i++) {
            hint.onData(EcnCodepoint.CE);
        }
        active(4, INTERVAL);
        final long marked = hint.currentMbps(INTERVAL);
        assertThat(marked).isEqualTo(fair / 2);
        long later = marked;
        for (int interval = 2; interval < 40; interval++) {
            active(4, interval * INTERVAL);
            hint.onData(EcnCodepoint.ECT_0);
            later = hint.currentMbps(interval * INTERVAL);
        }
        assertThat(later).isEqualTo(fair);
    }

    @Test
    void shouldNotFallBelowAQuarterOfTheShare() {
        active(2, 0);
        final long fair = hint.currentMbps(0);
        long last = fair;
        for (int interval = 1; interval < 20; interval++) {
            hint.onData(EcnCodepoint.CE);
            active(2, interval * INTERVAL);
            last = hint.currentMbps(interval * INTERVAL);
        }
        assertThat(last).isEqualTo(fair / 4);
    }

    @Test
    void shouldCountASenderQuietForLessThanTheActiveWindowWhenOneIsSet() {
        final EndpointConfig longer =
                config.toBuilder().rateHintActiveWindow(8 * INTERVAL).build();
        final RateHint windowed = new RateHint(longer, connections);
        active(4, 0);
        connections.add(connection(-3 * INTERVAL)); // a fair-share sender between two packets
        assertThat(hint.currentMbps(0)).as("the draft's window: one interval").isEqualTo(95_000 / 4);
        assertThat(windowed.currentMbps(0)).isEqualTo(95_000 / 5);
    }

    private void active(final int count, final long nowNs) {
        connections.clear();
        for (int i = 0; i < count; i++) {
            connections.add(connection(nowNs));
        }
    }

    private Connection connection(final long lastDataNs) {
        final Connection connection = new Connection(
                ConnectionConfig.of(connections.size() + 1, 99, 1, 1, 1), config, new StateBudget(1 << 20), 0);
        connection.lastDataReceivedNs = lastDataNs;
        return connection;
    }
}

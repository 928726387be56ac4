package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RouteSelectorTest {
    private static final int ROUTES = 8;
    private static final int PORTS = 8_000;

    @Test
    void shouldPutConsecutivePortsOnDistinctRoutesWithModulo() {
        for (int port = 49_152; port < 49_152 + ROUTES; port++) {
            assertThat(RouteSelector.MODULO.select(0, 1, port, ROUTES)).isEqualTo(port % ROUTES);
        }
        assertThat(RouteSelector.MODULO.select(0, 1, 49_152, ROUTES))
                .isNotEqualTo(RouteSelector.MODULO.select(0, 1, 49_153, ROUTES));
    }

    @Test
    void shouldSpreadPortsEvenlyWithHash() {
        final RouteSelector hash = RouteSelector.hash(3);
        final int[] counts = new int[ROUTES];

        for (int port = 0; port < PORTS; port++) {
            counts[hash.select(0, 1, port, ROUTES)]++;
        }

        for (final int count : counts) {
            assertThat(count).isBetween(850, 1_150);
        }
    }

    @Test
    void shouldHashTheSameFlowToTheSameRouteForTheSameSeed() {
        final RouteSelector first = RouteSelector.hash(3);
        final RouteSelector second = RouteSelector.hash(3);
        final RouteSelector otherSeed = RouteSelector.hash(4);
        int differences = 0;

        for (int port = 0; port < PORTS; port++) {
            assertThat(second.select(2, 5, port, ROUTES)).isEqualTo(first.select(2, 5, port, ROUTES));
            if (otherSeed.select(2, 5, port, ROUTES) != first.select(2, 5, port, ROUTES)) {
                differences++;
            }
        }

        // A fresh hash agrees with the first on about 1 port in 8.
        assertThat(differences).isGreaterThan(PORTS / 2);
    }

    @Test
    void shouldHashTheNodePairToo() {
        final RouteSelector hash = RouteSelector.hash(3);
        int differences = 0;

        for (int port = 0; port < PORTS; port++) {
            if (hash.select(0, 1, port, ROUTES) != hash.select(1, 0, port, ROUTES)) {
                differences++;
            }
        }

        assertThat(differences).isGreaterThan(PORTS / 2);
    }
}

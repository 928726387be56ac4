package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.fabric.RecordingEndpoint.send;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;

class FabricTest {
    private static final int ROUTES = 4;
    private static final int BASE_PORT = 1000;

    private final Simulator simulator = new Simulator();

    @Test
    void shouldCreateHostLinksAndRoutesForEveryOrderedPair() {
        final Fabric fabric =
                new Fabric(simulator, FabricConfig.builder().routeCount(ROUTES).build());

        for (int i = 0; i < 3; i++) {
            assertThat(fabric.attach(new RecordingEndpoint()).id()).isEqualTo(i);
        }

        // 3 uplinks, 3 downlinks, 6 ordered pairs of 4 routes.
        assertThat(fabric.links()).hasSize(3 + 3 + 6 * ROUTES);
        assertThat(fabric.routeLinks(2)).hasSize(6).allMatch(link -> link.routeIndex() == 2);
        final Link route = fabric.route(2, 0, 3);
        assertThat(route.kind()).isEqualTo(Link.Kind.ROUTE);
        assertThat(route.srcNode()).isEqualTo(2);
        assertThat(route.dstNode()).isEqualTo(0);
        assertThat(route).hasToString("route(2->0 #3)");
        assertThat(fabric.uplink(1)).hasToString("uplink(1)");
        assertThat(fabric.downlink(1).kind()).isEqualTo(Link.Kind.DOWNLINK);
        assertThat(fabric.nodeCount()).isEqualTo(3);
    }

    @Test
    void shouldSelectRouteBySourcePortModulo() {
        final Fabric fabric =
                new Fabric(simulator, FabricConfig.builder().routeCount(ROUTES).build());
        final FabricNode a = fabric.attach(new RecordingEndpoint());
        final FabricNode b = fabric.attach(new RecordingEndpoint());
        final List<int[]> portAndRoute = new ArrayList<>();
        fabric.tap((nowNs, event, link, packet) -> {
            if (event == TapEvent.SENT) {
                portAndRoute.add(new int[] {packet.srcPort(), packet.routeIndex()});
            }
        });

        for (int port = BASE_PORT; port < BASE_PORT + 3 * ROUTES; port++) {
            send(a, b.id(), port, EcnCodepoint.NOT_ECT, 100, port);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        for (int r = 0; r < ROUTES; r++) {
            assertThat(fabric.route(a.id(), b.id(), r).packetsSent()).isEqualTo(3);
            assertThat(fabric.route(b.id(), a.id(), r).packetsSent()).isZero();
        }
        assertThat(portAndRoute).hasSize(3 * ROUTES).allMatch(pr -> pr[1] == pr[0] % ROUTES);
    }

    @Test
    void shouldSpreadPortsWithSeededHashRouting() {
        final Fabric fabric = new Fabric(
                simulator,
                FabricConfig.builder().routeCount(ROUTES).hashRouting().build());
        final FabricNode a = fabric.attach(new RecordingEndpoint());
        final FabricNode b = fabric.attach(new RecordingEndpoint());

        for (int port = 0; port < 4_000; port++) {
            send(a, b.id(), port, EcnCodepoint.NOT_ECT, 16, port);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        boolean anyNotModulo = false;
        for (int port = 0; port < 4_000; port++) {
            anyNotModulo |= fabric.routeIndexFor(a.id(), b.id(), port) != port % ROUTES;
        }
        assertThat(anyNotModulo).isTrue();
        for (int r = 0; r < ROUTES; r++) {
            assertThat(fabric.route(a.id(), b.id(), r).packetsSent()).isBetween(850L, 1_150L);
        }
    }

    @Test
    void shouldRecyclePacketBuffersInSteadyState() {
        final Fabric fabric = new Fabric(simulator, FabricConfig.defaults());
        final FabricNode a = fabric.attach(new RecordingEndpoint());
        final FabricNode b = fabric.attach(new RecordingEndpoint());
        for (int i = 0; i < 10_000; i++) {
            final int sequence = i;
            simulator.schedule(i * 1_000L, () -> send(a, b.id(), BASE_PORT, EcnCodepoint.NOT_ECT, 1_000, sequence));
        }

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(b.packetsDelivered()).isEqualTo(10_000);
        assertThat(fabric.packetsInFlight()).isZero();
        assertThat(fabric.packetsAllocated()).isLessThan(10);
    }

    @Test
    void shouldReportEveryEventToTheTap() {
        final Fabric fabric = new Fabric(
                simulator,
                FabricConfig.builder()
                        .downlink(LinkConfig.DEFAULT.withQueueCapacityBytes(2 * (100 + 78)))
                        .build());
        final FabricNode a = fabric.attach(new RecordingEndpoint());
        final FabricNode b = fabric.attach(new RecordingEndpoint());
        final FabricNode c = fabric.attach(new RecordingEndpoint());
        final List<TapEvent> events = new ArrayList<>();
        fabric.tap((nowNs, event, link, packet) -> events.add(event));

        // Incast: both senders' packets meet at c's downlink, which holds two.
        for (int i = 0; i < 3; i++) {
            send(a, c.id(), BASE_PORT, EcnCodepoint.NOT_ECT, 100, i);
            send(b, c.id(), BASE_PORT, EcnCodepoint.NOT_ECT, 100, i);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(events).filteredOn(e -> e == TapEvent.SENT).hasSize(6);
        final long dropped =
                events.stream().filter(e -> e == TapEvent.QUEUE_DROPPED).count();
        final long delivered =
                events.stream().filter(e -> e == TapEvent.DELIVERED).count();
        assertThat(dropped).isEqualTo(fabric.downlink(c.id()).queueDrops()).isPositive();
        assertThat(dropped + delivered).isEqualTo(6);
        assertThat(c.packetsDelivered()).isEqualTo(delivered);
    }
}

package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.RandomLoss;
import org.mrconf.sim.SimulatedCluster;

/**
 * More than a million packets at 5% loss: the endpoint's state and the fabric's packet pool must stay
 * bounded, sampled every hundred messages, and the heap must not grow with the packet count.
 */
class SoakTest {
    private static final int PATHS = 4;
    private static final int MESSAGE = 256 << 10;
    private static final long TARGET_PACKETS = 1_050_000;

    @Test
    void shouldKeepStateBoundedOverAMillionPacketsAtFivePercentLoss() {
        final LinkConfig link = LinkConfig.DEFAULT.withPropagationNs(2_000);
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(PATHS)
                .route(link)
                .downlink(link)
                .seed(5)
                .build());
        // Small packets: a million of them without moving gigabytes.
        final EndpointConfig config = EndpointConfig.builder().mtu(1100).build();
        final Endpoint a = cluster.addEndpoint(config);
        final Endpoint b = cluster.addEndpoint(config.toBuilder().entropySeed(9).build());
        cluster.connect(0, 1, 1, 2, PATHS, 2);
        for (int route = 0; route < PATHS; route++) {
            final int r = route;
            cluster.fabric().routeLinks(route).forEach(l -> l.impairment(new RandomLoss(0.05, 100 + r)));
        }
        final MemoryRegion source = a.registerRegion(0x1000, MESSAGE, AccessFlags.ALL);
        final MemoryRegion target = b.registerRegion(0x1000, MESSAGE, AccessFlags.ALL);

        final List<EndpointDiagnostics> samples = new ArrayList<>();
        long heapAfterWarmUp = 0;
        long messages = 0;
        while (a.counters().get(Counter.TX_DATA_PACKETS) + a.counters().get(Counter.TX_RETRANSMISSIONS)
                < TARGET_PACKETS) {
            for (int i = 0; i < 8; i++) {
                a.postWrite(1, i % 2, source.key(), 0x1000, MESSAGE, 0x1000, target.key(), messages++);
            }
            final long expected = messages;
            final long[] completed = {messages - 8};
            assertThat(cluster.runUntil(
                            () -> {
                                while (a.pollCompletion() != null) {
                                    completed[0]++;
                                }
                                return completed[0] == expected;
                            },
                            cluster.nowNs() + 1_000_000_000L))
                    .isTrue();
            if (messages % 96 == 0) {
                samples.add(a.diagnostics());
                samples.add(b.diagnostics());
                assertThat(cluster.fabric().packetsAllocated())
                        .as("fabric packet pool")
                        .isLessThan(20_000);
            }
            if (messages == 400) {
                heapAfterWarmUp = usedHeapAfterGc();
            }
        }
        final long heapAtEnd = usedHeapAfterGc();

        assertThat(a.counters().get(Counter.TX_DATA_PACKETS)).isGreaterThan(900_000);
        assertThat(a.counters().get(Counter.TX_RETRANSMISSIONS)).isGreaterThan(40_000);
        assertThat(samples).allSatisfy(d -> {
            assertThat(d.queuedMessages()).isLessThanOrEqualTo(8);
            assertThat(d.awaitingCompletion()).isLessThanOrEqualTo(8);
            assertThat(d.outstandingPsns()).isLessThanOrEqualTo(PATHS * 256);
            assertThat(d.openReads()).isZero();
            assertThat(d.pendingCompletions()).isLessThanOrEqualTo(8);
        });
        assertThat(a.diagnostics()).isEqualTo(new EndpointDiagnostics(1, 0, 0, 0, 0, 0));
        assertThat(heapAtEnd - heapAfterWarmUp)
                .as("heap growth over %d messages", messages)
                .isLessThan(64L << 20);
    }

    private static long usedHeapAfterGc() {
        final Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}

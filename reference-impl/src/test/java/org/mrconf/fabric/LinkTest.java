package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mrconf.fabric.RecordingEndpoint.send;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;

class LinkTest {
    /** 10 Gbit/s: a byte takes 0.8 ns. */
    private static final long TEN_GBPS = 10_000_000_000L;

    private static final int OVERHEAD = 78;
    /** With the overhead, 1250 wire bytes: exactly 1000 ns at 10 Gbit/s. */
    private static final int PAYLOAD = 1172;

    private static final int WIRE = PAYLOAD + OVERHEAD;
    private static final long UPLINK_PROPAGATION_NS = 500;
    private static final long ROUTE_PROPAGATION_NS = 2_000;
    private static final long DOWNLINK_PROPAGATION_NS = 300;
    private static final int PORT = 4791;
    private static final long SEED = 11L;

    private final Simulator simulator = new Simulator();
    private final RecordingEndpoint sender = new RecordingEndpoint();
    private final RecordingEndpoint receiver = new RecordingEndpoint();
    private FabricNode a;
    private FabricNode b;
    private Fabric fabric;

    @BeforeEach
    void setUp() {
        build(baseConfig().build());
    }

    @Test
    void shouldTakeExactSerializationAndPropagationTime() {
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 0);

        simulator.runUntilIdle(Long.MAX_VALUE);

        // Three store-and-forward hops of 1000 ns each, plus the three propagation delays.
        assertThat(receiver.arrivalTimes())
                .containsExactly(3 * 1_000 + UPLINK_PROPAGATION_NS + ROUTE_PROPAGATION_NS + DOWNLINK_PROPAGATION_NS);
    }

    @Test
    void shouldQueueBackToBackPacketsOneSerializationApart() {
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 0);
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 1);
        simulator.schedule(10_000, () -> send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 2));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.arrivalTimes()).containsExactly(5_800L, 6_800L, 15_800L);
        assertThat(a.uplink().maxQueueBytes()).isEqualTo(2 * WIRE);
    }

    @Test
    void shouldNotAccumulateRoundingOverBackToBackPackets() {
        // 4096 + 78 bytes at 100 Gbit/s is 333.92 ns, not a whole number of nanoseconds.
        final LinkConfig fast = new LinkConfig(100_000_000_000L, 0, 64 << 20, LinkConfig.NEVER_MARK);
        build(FabricConfig.builder().allLinks(fast).build());
        final int packets = 1_000;
        for (int i = 0; i < packets; i++) {
            send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 4096, i);
        }

        simulator.runUntilIdle(Long.MAX_VALUE);

        final long exactPs = (packets + 2) * 333_920L;
        assertThat(receiver.arrivals).hasSize(packets);
        assertThat(receiver.arrivals.get(packets - 1).timeNs()).isBetween(exactPs / 1000, exactPs / 1000 + 3);
    }

    @Test
    void shouldUseARoutesOwnPropagationDelayForLongHaul() {
        final Link route = fabric.route(a.id(), b.id(), fabric.routeIndexFor(a.id(), b.id(), PORT));
        route.configure(route.config().withPropagationNs(1_000_000));

        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 0);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.arrivalTimes()).containsExactly(3 * 1_000 + 500 + 1_000_000 + 300L);
    }

    @Test
    void shouldKeepFifoOrderOnOneRoute() {
        for (int i = 0; i < 100; i++) {
            send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 64 + (i * 37) % 1400, i);
        }

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.sequences()).hasSize(100).isSorted();
    }

    @Test
    void shouldTailDropWhenQueueIsFull() {
        build(baseConfig().uplink(link(0).withQueueCapacityBytes(3 * WIRE)).build());

        for (int i = 0; i < 10; i++) {
            send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, i);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        // The packet being serialised still occupies the queue, so three fit.
        assertThat(receiver.sequences()).containsExactly(0, 1, 2);
        assertThat(a.uplink().queueDrops()).isEqualTo(7);
        assertThat(a.uplink().maxQueueBytes()).isEqualTo(3 * WIRE);
        assertThat(a.uplink().queueBytes()).isZero();
        assertThat(fabric.packetsInFlight()).isZero();
    }

    @Test
    void shouldAcceptAgainOnceTheQueueDrains() {
        build(baseConfig().uplink(link(0).withQueueCapacityBytes(WIRE)).build());
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 0);
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 1);
        simulator.schedule(1_000, () -> send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, 2));

        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.sequences()).containsExactly(0, 2);
        assertThat(a.uplink().queueDrops()).isEqualTo(1);
    }

    @Test
    void shouldMarkCeAboveThreshold() {
        build(baseConfig().uplink(link(0).withEcnThresholdBytes(WIRE)).build());

        for (int i = 0; i < 4; i++) {
            send(a, b.id(), PORT, EcnCodepoint.ECT_0, PAYLOAD, i);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        // Occupancy at enqueue is 0, 1, 2, 3 packets; only more than one packet's worth marks.
        assertThat(ecnOnArrival())
                .containsExactly(EcnCodepoint.ECT_0, EcnCodepoint.ECT_0, EcnCodepoint.CE, EcnCodepoint.CE);
        assertThat(a.uplink().ecnMarks()).isEqualTo(2);
    }

    @Test
    void shouldMarkEct1AndLeaveCeAsItIs() {
        build(baseConfig().uplink(link(0).withEcnThresholdBytes(0)).build());

        send(a, b.id(), PORT, EcnCodepoint.ECT_1, PAYLOAD, 0);
        send(a, b.id(), PORT, EcnCodepoint.ECT_1, PAYLOAD, 1);
        send(a, b.id(), PORT, EcnCodepoint.CE, PAYLOAD, 2);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(ecnOnArrival()).containsExactly(EcnCodepoint.ECT_1, EcnCodepoint.CE, EcnCodepoint.CE);
        assertThat(a.uplink().ecnMarks()).isEqualTo(1);
    }

    @Test
    void shouldNeverMarkNonEctPackets() {
        build(baseConfig().uplink(link(0).withEcnThresholdBytes(0)).build());

        for (int i = 0; i < 4; i++) {
            send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, i);
        }
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(ecnOnArrival()).containsOnly(EcnCodepoint.NOT_ECT);
        assertThat(a.uplink().ecnMarks()).isZero();
    }

    @Test
    void shouldReorderPacketsWithJitter() {
        dataRoute().impairment(new RandomJitter(20_000, SEED));

        sendSpaced(200, 1_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(receiver.sequences()).hasSize(200).containsExactlyInAnyOrderElementsOf(range(200));
        assertThat(inversions(receiver.sequences())).isGreaterThan(50);
    }

    @Test
    void shouldNotReorderWithoutJitter() {
        sendSpaced(200, 1_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(inversions(receiver.sequences())).isZero();
    }

    @Test
    void shouldDeliverDuplicates() {
        final Link route = dataRoute().impairment(new RandomDuplication(1.0, SEED));

        sendSpaced(50, 2_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(route.duplicates()).isEqualTo(50);
        assertThat(b.packetsDelivered()).isEqualTo(100);
        assertThat(receiver.arrivals).hasSize(100);
        for (int i = 0; i < 50; i++) {
            assertThat(receiver.arrivals.get(2 * i).payload())
                    .isEqualTo(receiver.arrivals.get(2 * i + 1).payload());
        }
    }

    @Test
    void shouldFlipExactlyOneBitEndToEnd() {
        final Link route = dataRoute().impairment(new BitCorruption(1.0, SEED));

        sendSpaced(100, 2_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(route.corruptions()).isEqualTo(100);
        assertThat(receiver.arrivals).hasSize(100);
        for (int i = 0; i < 100; i++) {
            final byte[] expected = RecordingEndpoint.payload(PAYLOAD, i);
            final byte[] actual = receiver.arrivals.get(i).payload();
            int flippedBits = 0;
            for (int j = 0; j < expected.length; j++) {
                flippedBits += Integer.bitCount((expected[j] ^ actual[j]) & 0xFF);
            }
            assertThat(flippedBits).as("packet %d", i).isEqualTo(1);
        }
    }

    @Test
    void shouldDropEverythingDuringBlackoutThenRecover() {
        final Link route = dataRoute().impairment(new Blackout(2_000_000, 5_000_000));

        sendSpaced(80, 100_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        // FabricPacket k enters the route about 1.5 µs after k * 100 µs: packets 20..49 fall in the window.
        assertThat(route.impairmentDrops()).isEqualTo(30);
        assertThat(receiver.sequences())
                .containsExactlyElementsOf(
                        range(80).stream().filter(k -> k < 20 || k >= 50).toList());
        assertThat(receiver.arrivalTimes()).noneMatch(t -> t > 2_000_000 && t < 5_000_000);
    }

    @Test
    void shouldApplyScheduledImpairmentChanges() {
        final Link route = dataRoute();
        fabric.scheduleImpairment(2_000_000, route, Blackout.from(0));
        fabric.scheduleImpairment(5_000_000, route, LinkImpairment.NONE);

        sendSpaced(80, 100_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(route.impairmentDrops()).isEqualTo(30);
        assertThat(receiver.arrivals).hasSize(50);
        assertThat(route.impairment()).isSameAs(LinkImpairment.NONE);
    }

    @Test
    void shouldCountImpairmentDropsPerLink() {
        final Link route = dataRoute().impairment(new RandomLoss(0.5, SEED));

        sendSpaced(1_000, 2_000);
        simulator.runUntilIdle(Long.MAX_VALUE);

        assertThat(route.impairmentDrops()).isBetween(420L, 580L);
        assertThat(route.packetsSent() + route.impairmentDrops()).isEqualTo(1_000);
        assertThat(b.packetsDelivered()).isEqualTo(route.packetsSent());
        assertThat(a.uplink().impairmentDrops()).isZero();
    }

    @Test
    void shouldCountPacketsAndBytesSent() {
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 100, 0);
        send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, 200, 1);

        simulator.runUntilIdle(Long.MAX_VALUE);

        for (final Link link : List.of(a.uplink(), dataRoute(), b.downlink())) {
            assertThat(link.packetsSent()).as(link.toString()).isEqualTo(2);
            assertThat(link.bytesSent()).as(link.toString()).isEqualTo(300);
            assertThat(link.wireBytesSent()).as(link.toString()).isEqualTo(300 + 2 * OVERHEAD);
        }
        a.uplink().resetCounters();
        assertThat(a.uplink().packetsSent()).isZero();
        assertThat(a.uplink().maxQueueBytes()).isZero();
    }

    private void build(final FabricConfig config) {
        fabric = new Fabric(simulator, config);
        a = fabric.attach(sender);
        b = fabric.attach(receiver);
    }

    private static FabricConfig.Builder baseConfig() {
        return FabricConfig.builder()
                .routeCount(4)
                .wireOverheadBytes(OVERHEAD)
                .uplink(link(UPLINK_PROPAGATION_NS))
                .route(link(ROUTE_PROPAGATION_NS))
                .downlink(link(DOWNLINK_PROPAGATION_NS));
    }

    private static LinkConfig link(final long propagationNs) {
        return new LinkConfig(TEN_GBPS, propagationNs, 1 << 20, LinkConfig.NEVER_MARK);
    }

    private Link dataRoute() {
        return fabric.route(a.id(), b.id(), fabric.routeIndexFor(a.id(), b.id(), PORT));
    }

    private void sendSpaced(final int count, final long spacingNs) {
        for (int i = 0; i < count; i++) {
            final int sequence = i;
            simulator.schedule(i * spacingNs, () -> send(a, b.id(), PORT, EcnCodepoint.NOT_ECT, PAYLOAD, sequence));
        }
    }

    private List<Integer> ecnOnArrival() {
        return receiver.arrivals.stream().map(RecordingEndpoint.Arrival::ecn).toList();
    }

    private static List<Integer> range(final int count) {
        return IntStream.range(0, count).boxed().toList();
    }

    private static int inversions(final List<Integer> sequence) {
        int count = 0;
        for (int i = 1; i < sequence.size(); i++) {
            if (sequence.get(i) < sequence.get(i - 1)) {
                count++;
            }
        }
        return count;
    }
}

package org.mrconf.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.net.PacketReceiver;
import org.mrconf.net.PacketTransmitter;

class TapDigestTest {
    private static final long SEED = 42L;
    private static final int NODES = 4;
    private static final long RUN_NS = 2_000_000;

    @Test
    void shouldGiveIdenticalDigestsForTheSameSeed() {
        final int[] eventCounts = new int[TapEvent.values().length];
        final TapDigest first = runScenario(SEED, eventCounts);
        final TapDigest second = runScenario(SEED, new int[eventCounts.length]);

        // The scenario exercises every kind of event, so the digest covers them all.
        assertThat(eventCounts).doesNotContain(0);
        assertThat(first.records()).isGreaterThan(10_000);
        assertThat(second.records()).isEqualTo(first.records());
        assertThat(second.value()).isEqualTo(first.value());
    }

    @Test
    void shouldGiveADifferentDigestForAnotherSeed() {
        assertThat(runScenario(SEED + 1, new int[TapEvent.values().length]).value())
                .isNotEqualTo(
                        runScenario(SEED, new int[TapEvent.values().length]).value());
    }

    @Test
    void shouldFoldPayloadIntoTheDigest() {
        final TapDigest a = new TapDigest();
        final TapDigest b = new TapDigest();
        final Link link = new Fabric(new Simulator(), FabricConfig.defaults())
                .attach(new RecordingEndpoint())
                .uplink();

        a.onPacket(
                5,
                TapEvent.SENT,
                link,
                PacketFate.standalone(new byte[] {1, 2, 3}).packet());
        b.onPacket(
                5,
                TapEvent.SENT,
                link,
                PacketFate.standalone(new byte[] {1, 2, 4}).packet());

        assertThat(a.value()).isNotEqualTo(b.value());
        assertThat(a.records()).isEqualTo(1);
    }

    /**
     * Four chatty nodes sending to each other on random ports at random times through routes that lose,
     * burst-lose, jitter, duplicate and corrupt, with small queues that drop and mark.
     */
    private static TapDigest runScenario(final long seed, final int[] eventCounts) {
        final Simulator simulator = new Simulator();
        final FabricConfig config = FabricConfig.builder()
                .seed(seed)
                .hashRouting()
                .downlink(new LinkConfig(40_000_000_000L, 500, 32 << 10, 8 << 10))
                .build();
        final Fabric fabric = new Fabric(simulator, config);
        final TapDigest digest = new TapDigest();
        fabric.tap((nowNs, event, link, packet) -> {
            eventCounts[event.ordinal()]++;
            digest.onPacket(nowNs, event, link, packet);
        });
        for (int n = 0; n < NODES; n++) {
            final ChattyEndpoint endpoint = new ChattyEndpoint(config.seedFor(1_000 + n), simulator);
            endpoint.transmitter = fabric.attach(endpoint).transmitter();
            endpoint.self = n;
        }
        for (final Link link : fabric.links()) {
            if (link.kind() == Link.Kind.ROUTE) {
                final long linkSeed = config.seedFor(link.id());
                link.impairment(LinkImpairment.chain(
                        new RandomLoss(0.01, linkSeed),
                        new GilbertElliottLoss(0.01, 0.3, 0.0, 1.0, linkSeed + 1),
                        new RandomJitter(3_000, linkSeed + 2),
                        new RandomDuplication(0.01, linkSeed + 3),
                        new BitCorruption(0.01, linkSeed + 4)));
            }
        }
        simulator.runUntil(RUN_NS);
        return digest;
    }

    /** Sends a random-sized packet to a random peer on a random port every few hundred nanoseconds. */
    private static final class ChattyEndpoint implements PacketReceiver {
        private final SeededRandom random;
        private final Simulator simulator;
        private final ByteBuffer buffer = ByteBuffer.allocate(4096);
        private PacketTransmitter transmitter;
        private int self;
        private long nextSendNs;

        ChattyEndpoint(final long seed, final Simulator simulator) {
            this.random = new SeededRandom(seed);
            this.simulator = simulator;
            this.nextSendNs = random.nextLong(1_000);
        }

        @Override
        public void onPacket(
                final int srcNode,
                final int srcPort,
                final int ecn,
                final ByteBuffer packet,
                final int offset,
                final int length,
                final long nowNs) {}

        @Override
        public void onWakeup(final long nowNs) {
            int dst = random.nextInt(NODES - 1);
            if (dst >= self) {
                dst++;
            }
            final int length = 64 + random.nextInt(4000);
            for (int i = 0; i < length; i++) {
                buffer.put(i, (byte) random.nextLong());
            }
            transmitter.transmit(dst, 49_152 + random.nextInt(64), EcnCodepoint.ECT_0, buffer, 0, length);
            nextSendNs = simulator.nowNs() + 100 + random.nextLong(600);
        }

        @Override
        public long nextWakeupNs() {
            return nextSendNs;
        }
    }
}

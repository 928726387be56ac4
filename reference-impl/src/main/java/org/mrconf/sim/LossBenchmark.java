package org.mrconf.sim;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.baseline.GbnConfig;
import org.mrconf.baseline.GbnRequester;
import org.mrconf.baseline.GbnResponder;
import org.mrconf.fabric.Fabric;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.FabricNode;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.RandomLoss;
import org.mrconf.fabric.Simulator;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Completion;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;

/**
 * Goodput and message completion time under random loss, for the reference transport with N paths and
 * for the go-back-N baseline, on the same fabric: every host and core link at the same rate, random
 * loss on every core link in both directions, a closed loop that keeps a fixed number of large messages
 * outstanding. Virtual time, so the numbers are exact and repeatable for a seed.
 */
public final class LossBenchmark {
    /** Which transport a run measures. */
    public enum Transport {
        METAROCE,
        GO_BACK_N
    }

    /**
     * The fabric and workload.
     *
     * @param linkRateBps        rate of every link
     * @param routePropagationNs one-way propagation of a core link (host links add 500 ns each)
     * @param routes             parallel core routes between the two hosts
     * @param messageBytes       size of each message
     * @param messages           messages per run
     * @param outstanding        messages kept in flight by the closed loop
     * @param timeLimitNs        virtual time after which a run stops and reports what completed
     * @param seed               seed of the loss processes
     */
    public record Settings(
            long linkRateBps,
            long routePropagationNs,
            int routes,
            int messageBytes,
            int messages,
            int outstanding,
            long timeLimitNs,
            long seed) {
        /** 100 Gbit/s, 41 µs base RTT (a bandwidth-delay product of about 123 packets), 8 MiB messages. */
        public static Settings defaults() {
            return new Settings(100_000_000_000L, 18_500, 8, 8 << 20, 24, 2, 2_000_000_000L, 1);
        }

        /** A small, fast variant for smoke tests. */
        public Settings quick() {
            return new Settings(linkRateBps, routePropagationNs, routes, 1 << 20, 6, outstanding, 200_000_000L, seed);
        }

        /**
         * Initial path and connection window: one bandwidth-delay product of 4 KiB packets, so a new
         * connection can fill the pipe in its first RTT and bursts no more than that into a shared queue.
         */
        public int initialWindowPackets() {
            final long bdp = linkRateBps / 8 * baseRttNs() / 1_000_000_000L / 4096;
            return (int) Math.max(16, Math.min(256, bdp));
        }

        /** The base round-trip time: propagation both ways over uplink, route and downlink. */
        public long baseRttNs() {
            return 2 * (routePropagationNs + 2 * LinkConfig.DEFAULT.propagationNs());
        }
    }

    /** The outcome of one run. */
    public record Run(
            Transport transport,
            int paths,
            double lossRate,
            int messagesCompleted,
            long bytesCompleted,
            long elapsedNs,
            long p50CompletionNs,
            long p99CompletionNs,
            long dataPackets,
            long retransmissions,
            long timeouts) {
        /** Application bytes per second of virtual time, in Gbit/s. */
        public double goodputGbps() {
            return elapsedNs == 0 ? 0 : bytesCompleted * 8.0 / elapsedNs;
        }
    }

    /** Ethernet framing (38) plus IPv4 (20) and UDP (8) headers: what every packet costs on a link beyond its payload. */
    static final int WIRE_OVERHEAD_BYTES = 66;

    private LossBenchmark() {}

    /** Runs one configuration. {@code paths} is ignored for go-back-N, which has one. */
    public static Run run(final Transport transport, final int paths, final double lossRate, final Settings settings) {
        return transport == Transport.METAROCE
                ? runMetaRoce(paths, lossRate, settings)
                : runGoBackN(lossRate, settings);
    }

    private static FabricConfig fabric(final Settings settings) {
        final LinkConfig host = LinkConfig.DEFAULT.withRateBps(settings.linkRateBps());
        return FabricConfig.builder()
                .routeCount(settings.routes())
                .wireOverheadBytes(WIRE_OVERHEAD_BYTES)
                .uplink(host.withQueueCapacityBytes(64 << 20).withEcnThresholdBytes(LinkConfig.NEVER_MARK))
                .route(host.withPropagationNs(settings.routePropagationNs()))
                .downlink(host)
                .seed(settings.seed())
                .build();
    }

    private static void addLoss(final Fabric fabric, final double lossRate, final Settings settings) {
        if (lossRate <= 0) {
            return;
        }
        for (int route = 0; route < settings.routes(); route++) {
            final long routeSeed = settings.seed() * 1_000 + route;
            fabric.routeLinks(route).forEach(link -> link.impairment(new RandomLoss(lossRate, routeSeed + link.id())));
        }
    }

    private static Run runMetaRoce(final int paths, final double lossRate, final Settings settings) {
        final SimulatedCluster cluster = new SimulatedCluster(fabric(settings));
        final EndpointConfig config = EndpointConfig.builder()
                .lineRate(settings.linkRateBps())
                .windows(settings.initialWindowPackets(), settings.initialWindowPackets(), 65536)
                .entropySeed(settings.seed())
                .build();
        final Endpoint sender = cluster.addEndpoint(config);
        final Endpoint receiver = cluster.addEndpoint(
                config.toBuilder().entropySeed(settings.seed() + 1).build());
        cluster.connect(0, 1, 1, 2, paths, 1);
        addLoss(cluster.fabric(), lossRate, settings);
        final MemoryRegion source = sender.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);
        final MemoryRegion target = receiver.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);

        final long[] postedAt = new long[settings.messages()];
        final List<Long> completionTimes = new ArrayList<>();
        final int[] posted = {0};
        final Runnable postMore = () -> {
            while (posted[0] < settings.messages() && posted[0] - completionTimes.size() < settings.outstanding()) {
                postedAt[posted[0]] = cluster.nowNs();
                sender.postWrite(
                        1,
                        0,
                        source.key(),
                        source.address(),
                        settings.messageBytes(),
                        target.address(),
                        target.key(),
                        posted[0]++);
            }
        };
        postMore.run();
        cluster.runUntil(
                () -> {
                    Completion completion;
                    while ((completion = sender.pollCompletion()) != null) {
                        if (!completion.isSuccess()) {
                            throw new IllegalStateException("benchmark message failed: " + completion);
                        }
                        completionTimes.add(cluster.nowNs() - postedAt[(int) completion.workRequestId()]);
                    }
                    postMore.run();
                    return completionTimes.size() == settings.messages();
                },
                settings.timeLimitNs());
        return result(
                Transport.METAROCE,
                paths,
                lossRate,
                settings,
                completionTimes,
                cluster.nowNs(),
                sender.counters().get(Counter.TX_DATA_PACKETS),
                sender.counters().get(Counter.TX_RETRANSMISSIONS),
                sender.counters().get(Counter.RTO_EXPIRATIONS));
    }

    private static Run runGoBackN(final double lossRate, final Settings settings) {
        final Simulator simulator = new Simulator();
        final Fabric fabric = new Fabric(simulator, fabric(settings));
        final int window = (int) Math.min(
                65536,
                2L
                        * GbnConfig.windowFor(
                                settings.linkRateBps(), settings.baseRttNs(), GbnConfig.DEFAULT_MTU_PAYLOAD_BYTES));
        final GbnConfig config = GbnConfig.builder()
                .windowPackets(window)
                .rtoNs(GbnConfig.rtoFor(settings.baseRttNs()))
                .maxRetries(Integer.MAX_VALUE)
                .sendRateBps(settings.linkRateBps())
                .patternPayload(false)
                .wireOverheadBytes(WIRE_OVERHEAD_BYTES)
                .build();
        final GbnRequester requester = new GbnRequester(config);
        final GbnResponder responder = new GbnResponder(config);
        final FabricNode requesterNode = fabric.attach(requester);
        final FabricNode responderNode = fabric.attach(responder);
        requester.connect(requesterNode.transmitter(), responderNode.id(), 49152);
        responder.connect(responderNode.transmitter(), 49153);
        addLoss(fabric, lossRate, settings);

        final List<Long> completionTimes = new ArrayList<>();
        final int[] posted = {0};
        final Runnable postMore = () -> {
            while (posted[0] < settings.messages()
                    && posted[0] - requester.messagesCompleted() < settings.outstanding()) {
                requester.postMessage(settings.messageBytes(), simulator.nowNs());
                posted[0]++;
            }
            requesterNode.wakeupChanged();
        };
        postMore.run();
        simulator.runWhile(
                () -> {
                    while (completionTimes.size() < requester.messagesCompleted()) {
                        final int id = completionTimes.size();
                        completionTimes.add(requester.messageCompletionNs(id) - requester.messagePostNs(id));
                    }
                    if (posted[0] - requester.messagesCompleted() < settings.outstanding()
                            && posted[0] < settings.messages()) {
                        postMore.run();
                    }
                    return completionTimes.size() < settings.messages();
                },
                settings.timeLimitNs());
        return result(
                Transport.GO_BACK_N,
                1,
                lossRate,
                settings,
                completionTimes,
                simulator.nowNs(),
                requester.dataPacketsSent(),
                requester.retransmittedPackets(),
                requester.timeouts());
    }

    private static Run result(
            final Transport transport,
            final int paths,
            final double lossRate,
            final Settings settings,
            final List<Long> completionTimes,
            final long elapsedNs,
            final long dataPackets,
            final long retransmissions,
            final long timeouts) {
        final List<Long> sorted = new ArrayList<>(completionTimes);
        sorted.sort(null);
        return new Run(
                transport,
                paths,
                lossRate,
                sorted.size(),
                (long) sorted.size() * settings.messageBytes(),
                elapsedNs,
                percentile(sorted, 0.50),
                percentile(sorted, 0.99),
                dataPackets,
                retransmissions,
                timeouts);
    }

    /** Nearest-rank percentile; 0 when nothing completed. */
    static long percentile(final List<Long> sorted, final double fraction) {
        if (sorted.isEmpty()) {
            return 0;
        }
        final int rank = (int) Math.ceil(fraction * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}

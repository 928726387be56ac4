package org.mrconf.sim;

import org.mrconf.fabric.Blackout;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Counter;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;

/**
 * Recovery after one of 8 paths goes black: a continuous transfer over 8 paths on 8 routes, route 3
 * black in both directions from a fixed time on. Goodput is bytes placed at the receiver per bin;
 * the 7-path level is the goodput of the same transfer over 7 paths with no failure. Recovery time is
 * from the blackout until the goodput, averaged over a sliding window, stays within 5% of that level.
 */
public final class PathFailureBenchmark {
    /**
     * @param sevenPathGbps    steady goodput of the 7-path reference run
     * @param beforeGbps       goodput of the 8-path run before the blackout
     * @param minimumGbps      lowest windowed goodput after the blackout
     * @param recoveryNs       blackout until goodput stays within 5% of the 7-path level; -1 if never
     * @param baseRttNs        the fabric's base RTT, to express recovery in RTTs
     * @param timeouts         retransmission timeouts the sender took
     * @param repaths          entropy changes the sender made
     */
    public record Result(
            double sevenPathGbps,
            double beforeGbps,
            double minimumGbps,
            long recoveryNs,
            long baseRttNs,
            long timeouts,
            long repaths) {
        public double recoveryRtts() {
            return recoveryNs < 0 ? Double.NaN : (double) recoveryNs / baseRttNs;
        }
    }

    private static final long BIN_NS = 10_000;
    private static final int WINDOW_BINS = 10;
    private static final long BLACKOUT_NS = 4_000_000;
    private static final long RUN_NS = 12_000_000;

    private PathFailureBenchmark() {}

    public static Result run(final LossBenchmark.Settings settings) {
        final double sevenPath = steadyGoodput(runTransfer(settings, 7, false).sampler(), 0);
        final Transfer transfer = runTransfer(settings, 8, true);
        final ThroughputSampler failing = transfer.sampler();
        final int blackoutBin = (int) (BLACKOUT_NS / BIN_NS);
        final double before = averageGbps(failing, blackoutBin - 100, blackoutBin);
        double minimum = Double.MAX_VALUE;
        int lastBad = -1;
        for (int bin = blackoutBin; bin + WINDOW_BINS <= failing.binsFilled(); bin++) {
            final double windowed = averageGbps(failing, bin, bin + WINDOW_BINS);
            minimum = Math.min(minimum, windowed);
            if (windowed < 0.95 * sevenPath) {
                lastBad = bin + WINDOW_BINS;
            }
        }
        final long recovery = lastBad < 0 ? 0 : (lastBad - blackoutBin) * BIN_NS;
        return new Result(
                sevenPath, before, minimum, recovery, settings.baseRttNs(), transfer.timeouts(), transfer.repaths());
    }

    /** What one transfer run leaves behind. */
    private record Transfer(ThroughputSampler sampler, long timeouts, long repaths) {}

    private static Transfer runTransfer(
            final LossBenchmark.Settings settings, final int paths, final boolean blackout) {
        final LinkConfig host = LinkConfig.DEFAULT.withRateBps(settings.linkRateBps());
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(8)
                .wireOverheadBytes(LossBenchmark.WIRE_OVERHEAD_BYTES)
                .uplink(host.withQueueCapacityBytes(64 << 20).withEcnThresholdBytes(LinkConfig.NEVER_MARK))
                .route(host.withPropagationNs(settings.routePropagationNs()))
                .downlink(host)
                .seed(settings.seed())
                .build());
        final EndpointConfig config = EndpointConfig.builder()
                .lineRate(settings.linkRateBps())
                .windows(settings.initialWindowPackets(), settings.initialWindowPackets(), 65536)
                .entropySeed(settings.seed())
                .build();
        final Endpoint sender = cluster.addEndpoint(config);
        final Endpoint receiver = cluster.addEndpoint(
                config.toBuilder().entropySeed(settings.seed() + 1).build());
        cluster.connect(0, 1, 1, 2, paths, 1);
        if (blackout) {
            cluster.fabric()
                    .routeLinks(3)
                    .forEach(
                            link -> cluster.fabric().scheduleImpairment(BLACKOUT_NS, link, Blackout.from(BLACKOUT_NS)));
        }
        final MemoryRegion source = sender.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);
        final MemoryRegion target = receiver.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);
        final ThroughputSampler sampler = new ThroughputSampler(
                cluster.simulator(), () -> receiver.counters().get(Counter.BYTES_PLACED), 0, BIN_NS, (int)
                        (RUN_NS / BIN_NS));
        final int[] outstanding = {0};
        final long[] id = {0};
        final Runnable keepBusy = () -> {
            while (outstanding[0] < settings.outstanding()) {
                sender.postWrite(
                        1,
                        0,
                        source.key(),
                        source.address(),
                        settings.messageBytes(),
                        target.address(),
                        target.key(),
                        id[0]++);
                outstanding[0]++;
            }
        };
        keepBusy.run();
        cluster.runUntil(
                () -> {
                    while (sender.pollCompletion() != null) {
                        outstanding[0]--;
                    }
                    keepBusy.run();
                    return false;
                },
                RUN_NS);
        return new Transfer(
                sampler,
                sender.counters().get(Counter.RTO_EXPIRATIONS),
                sender.counters().get(Counter.REPATHS));
    }

    private static double steadyGoodput(final ThroughputSampler sampler, final int skipBins) {
        return averageGbps(sampler, Math.max(skipBins, sampler.binsFilled() / 4), sampler.binsFilled());
    }

    private static double averageGbps(final ThroughputSampler sampler, final int from, final int to) {
        double sum = 0;
        for (int bin = from; bin < to; bin++) {
            sum += sampler.gbps(bin);
        }
        return sum / Math.max(1, to - from);
    }
}

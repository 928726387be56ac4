package org.mrconf.sim;

import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.TapEvent;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;

/**
 * Incast: several senders into one receiver whose downlink is the bottleneck. Senders start one after
 * another; after the last has started, the time until the receiver's rate hints have brought the
 * senders to fair shares is measured as the first RTT-long bin from which Jain's fairness index of
 * their delivered bytes stays at or above 0.95.
 */
public final class IncastBenchmark {
    /**
     * @param senders          number of senders
     * @param paths            paths per sender
     * @param activeWindowNs   how recently a sender must have sent data to count as active for the rate hint
     * @param windowRtts       RTTs over which each Jain index is taken: 1, or more where a sender's fair share
     *                         of one RTT is under {@link #MIN_SHARE_PACKETS} packets, since whole packets per RTT
     *                         cannot be fair at the index's resolution (64 senders get under 2 packets each)
     * @param convergenceNs    from the last sender's start to the start of the first window from which every
     *                         later window is fair; -1 if never
     * @param baseRttNs        the fabric's base RTT
     * @param finalJain        Jain's index over the last quarter of the run
     * @param aggregateGbps    delivered goodput into the receiver over the last quarter
     */
    public record Result(
            int senders,
            int paths,
            long activeWindowNs,
            int windowRtts,
            long convergenceNs,
            long baseRttNs,
            double finalJain,
            double aggregateGbps) {
        public double convergenceRtts() {
            return convergenceNs < 0 ? Double.NaN : (double) convergenceNs / baseRttNs;
        }
    }

    private static final int DATA_MIN_BYTES = 200;
    /** Fewest packets per sender per fairness window. */
    public static final int MIN_SHARE_PACKETS = 8;

    private IncastBenchmark() {}

    /** {@link #run(LossBenchmark.Settings, int, int, long)} with the receiver's default active window (the interval). */
    public static Result run(final LossBenchmark.Settings settings, final int senders, final int paths) {
        return run(settings, senders, paths, EndpointConfig.defaults().rateHintIntervalNs());
    }

    /**
     * Runs {@code senders} senders of {@code paths} paths each into one receiver whose rate hint, recomputed
     * every default interval (10 us), counts the connections that sent data in the last {@code activeWindowNs}.
     */
    public static Result run(
            final LossBenchmark.Settings settings, final int senders, final int paths, final long activeWindowNs) {
        final long rtt = settings.baseRttNs();
        final long staggerNs = 2 * rtt;
        final long lastStartNs = (senders - 1) * staggerNs;
        final int binCount = 60;
        final long runNs = lastStartNs + binCount * rtt;
        final LinkConfig host = LinkConfig.DEFAULT.withRateBps(settings.linkRateBps());
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(8)
                .wireOverheadBytes(LossBenchmark.WIRE_OVERHEAD_BYTES)
                .uplink(host.withQueueCapacityBytes(64 << 20).withEcnThresholdBytes(LinkConfig.NEVER_MARK))
                .route(host.withPropagationNs(settings.routePropagationNs()))
                .downlink(host.withQueueCapacityBytes(4 << 20))
                .seed(settings.seed())
                .build());
        final EndpointConfig config = EndpointConfig.builder()
                .lineRate(settings.linkRateBps())
                .windows(settings.initialWindowPackets(), settings.initialWindowPackets(), 65536)
                .rateHintActiveWindow(activeWindowNs)
                .build();
        final Endpoint receiver = cluster.addEndpoint(
                config.toBuilder().entropySeed(settings.seed()).build());
        final MemoryRegion target = receiver.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);
        final long[][] bytesPerBin = new long[senders][binCount];
        cluster.fabric().tap((nowNs, event, link, packet) -> {
            if (event == TapEvent.DELIVERED
                    && packet.dstNode() == 0
                    && packet.length() > DATA_MIN_BYTES
                    && nowNs >= lastStartNs) {
                final int bin = (int) ((nowNs - lastStartNs) / rtt);
                if (bin < binCount) {
                    bytesPerBin[packet.srcNode() - 1][bin] += packet.length();
                }
            }
        });
        for (int i = 0; i < senders; i++) {
            final Endpoint sender = cluster.addEndpoint(
                    config.toBuilder().entropySeed(settings.seed() + 1 + i).build());
            final int node = i + 1;
            cluster.connect(node, 1, 0, 100 + i, paths, 1);
            final MemoryRegion source = sender.registerRegion(0x10_0000L, settings.messageBytes(), AccessFlags.ALL);
            cluster.simulator().schedule(i * staggerNs, () -> keepBusy(cluster, sender, source, target, settings));
        }
        cluster.runUntil(() -> false, runNs);

        final double bdpPackets = settings.linkRateBps() / 8.0 * rtt / 1e9 / 4096;
        final int window = (int) Math.max(1, Math.ceil(MIN_SHARE_PACKETS * senders / bdpPackets));
        long convergenceNs = -1;
        for (int bin = binCount - window; bin >= 0; bin--) {
            if (jain(bytesPerBin, bin, window) < 0.95) {
                convergenceNs = bin == binCount - window ? -1 : (bin + 1) * rtt;
                break;
            }
            convergenceNs = 0;
        }
        double lastQuarterJain = 0;
        int lastQuarterWindows = 0;
        long lastQuarterBytes = 0;
        final int from = binCount * 3 / 4;
        for (int bin = from; bin < binCount; bin++) {
            if (bin + window <= binCount) {
                lastQuarterJain += jain(bytesPerBin, bin, window);
                lastQuarterWindows++;
            }
            for (final long[] sender : bytesPerBin) {
                lastQuarterBytes += sender[bin];
            }
        }
        return new Result(
                senders,
                paths,
                Math.max(activeWindowNs, EndpointConfig.defaults().rateHintIntervalNs()),
                window,
                convergenceNs,
                rtt,
                lastQuarterJain / Math.max(1, lastQuarterWindows),
                lastQuarterBytes * 8.0 / ((binCount - from) * rtt));
    }

    /** Keeps two messages outstanding from one sender, reposting as they complete. */
    private static void keepBusy(
            final SimulatedCluster cluster,
            final Endpoint sender,
            final MemoryRegion source,
            final MemoryRegion target,
            final LossBenchmark.Settings settings) {
        for (int i = 0; i < settings.outstanding(); i++) {
            post(sender, source, target, settings);
        }
        cluster.simulator().schedule(cluster.nowNs() + 1_000, new Runnable() {
            @Override
            public void run() {
                while (sender.pollCompletion() != null) {
                    post(sender, source, target, settings);
                }
                cluster.simulator().schedule(cluster.nowNs() + 1_000, this);
            }
        });
    }

    private static void post(
            final Endpoint sender,
            final MemoryRegion source,
            final MemoryRegion target,
            final LossBenchmark.Settings settings) {
        sender.postWrite(
                1, 0, source.key(), source.address(), settings.messageBytes(), target.address(), target.key(), 0);
    }

    /** Jain's fairness index of the senders' bytes in bins {@code bin} to {@code bin + window - 1}: (sum x)^2 / (n * sum x^2). */
    static double jain(final long[][] bytesPerBin, final int bin, final int window) {
        double sum = 0;
        double squares = 0;
        for (final long[] sender : bytesPerBin) {
            long bytes = 0;
            for (int b = bin; b < bin + window; b++) {
                bytes += sender[b];
            }
            sum += bytes;
            squares += (double) bytes * bytes;
        }
        return squares == 0 ? 0 : sum * sum / (bytesPerBin.length * squares);
    }
}

package org.mrconf.sim;

import java.util.function.LongSupplier;
import org.mrconf.fabric.Simulator;

/**
 * Samples a growing byte counter at a fixed virtual-time interval, so benchmarks can see throughput over
 * time: bin i holds the bytes counted in [start + i * bin, start + (i + 1) * bin).
 */
final class ThroughputSampler {
    private final Simulator simulator;
    private final LongSupplier counter;
    private final long binNs;
    private final long[] bins;
    private long last;
    private int next;

    ThroughputSampler(
            final Simulator simulator,
            final LongSupplier counter,
            final long startNs,
            final long binNs,
            final int binCount) {
        this.simulator = simulator;
        this.counter = counter;
        this.binNs = binNs;
        this.bins = new long[binCount];
        simulator.schedule(startNs, () -> {
            last = counter.getAsLong();
            scheduleNext(startNs + binNs);
        });
    }

    private void scheduleNext(final long atNs) {
        if (next < bins.length) {
            simulator.schedule(atNs, () -> {
                final long now = counter.getAsLong();
                bins[next++] = now - last;
                last = now;
                scheduleNext(atNs + binNs);
            });
        }
    }

    /** Gbit/s in bin {@code i}. */
    double gbps(final int i) {
        return bins[i] * 8.0 / binNs;
    }

    int binsFilled() {
        return next;
    }

    long binNs() {
        return binNs;
    }
}

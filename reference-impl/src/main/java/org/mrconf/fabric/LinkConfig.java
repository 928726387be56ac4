package org.mrconf.fabric;

/**
 * The physical properties of one simulated link, read by {@link Link} each time a packet is enqueued
 * or starts serialising.
 *
 * @param rateBps            line rate in bits per second; a packet of {@code b} wire bytes takes
 *                           {@code b * 8 / rateBps} seconds to serialise
 * @param propagationNs      time from the last bit leaving to the last bit arriving (fibre length,
 *                           or a long-haul hop)
 * @param queueCapacityBytes FIFO capacity in wire bytes, the packet being serialised included; a packet
 *                           that does not fit is tail-dropped
 * @param ecnThresholdBytes  an ECN-capable packet that finds more than this many wire bytes queued is
 *                           marked CE; {@link Integer#MAX_VALUE} never marks
 */
public record LinkConfig(long rateBps, long propagationNs, int queueCapacityBytes, int ecnThresholdBytes) {
    /** 100 Gbit/s. */
    public static final long DEFAULT_RATE_BPS = 100_000_000_000L;
    /** 500 ns, about 100 m of fibre. */
    public static final long DEFAULT_PROPAGATION_NS = 500L;
    /** 1 MiB, a generous per-port share of a shallow-buffered switch. */
    public static final int DEFAULT_QUEUE_CAPACITY_BYTES = 1 << 20;
    /** 100 KiB, a DCQCN-style marking threshold for 100 Gbit/s. */
    public static final int DEFAULT_ECN_THRESHOLD_BYTES = 100 << 10;
    /** An ECN threshold that never marks. */
    public static final int NEVER_MARK = Integer.MAX_VALUE;

    /** A switch port with all the defaults above. */
    public static final LinkConfig DEFAULT = new LinkConfig(
            DEFAULT_RATE_BPS, DEFAULT_PROPAGATION_NS, DEFAULT_QUEUE_CAPACITY_BYTES, DEFAULT_ECN_THRESHOLD_BYTES);

    public LinkConfig {
        if (rateBps <= 0) {
            throw new IllegalArgumentException("rateBps=" + rateBps + " must be positive");
        }
        if (propagationNs < 0) {
            throw new IllegalArgumentException("propagationNs=" + propagationNs + " must not be negative");
        }
        if (queueCapacityBytes <= 0) {
            throw new IllegalArgumentException("queueCapacityBytes=" + queueCapacityBytes + " must be positive");
        }
        if (ecnThresholdBytes < 0) {
            throw new IllegalArgumentException("ecnThresholdBytes=" + ecnThresholdBytes + " must not be negative");
        }
    }

    public LinkConfig withRateBps(final long value) {
        return new LinkConfig(value, propagationNs, queueCapacityBytes, ecnThresholdBytes);
    }

    public LinkConfig withPropagationNs(final long value) {
        return new LinkConfig(rateBps, value, queueCapacityBytes, ecnThresholdBytes);
    }

    public LinkConfig withQueueCapacityBytes(final int value) {
        return new LinkConfig(rateBps, propagationNs, value, ecnThresholdBytes);
    }

    public LinkConfig withEcnThresholdBytes(final int value) {
        return new LinkConfig(rateBps, propagationNs, queueCapacityBytes, value);
    }

    /**
     * Serialisation time of {@code wireBytes} in picoseconds. The fabric keeps link busy time in
     * picoseconds so back-to-back packets at rates like 100 Gbit/s (0.08 ns a byte) do not drift.
     */
    public long serializationPs(final int wireBytes) {
        return wireBytes * 8_000_000_000_000L / rateBps;
    }
}

package org.mrconf.transport;

import org.mrconf.defect.Defects;

/**
 * The parameters of one reference endpoint (spec clause 12.1.3: what a device declares). Build with
 * {@link #defaults()} and the {@code with*} methods.
 *
 * @param lineRateBitsPerSecond the NIC's line rate: the pacer never exceeds it, and the receiver divides
 *                              it into fair shares for its rate hints
 * @param mtuBytes              largest IP datagram; data packets are filled to it (clause 4.1.9)
 * @param ipHeaderBytes         20 for IPv4, 40 for IPv6
 * @param minRtoNs              lower clamp of the retransmission timeout
 * @param initialRtoNs          timeout before the first RTT sample
 * @param maxRtoNs              upper clamp, also the backoff limit
 * @param ackDelayNs            longest an in-order packet waits for its ACK (clause 8.1.4)
 * @param ackCoalescingCount    most packets one coalesced ACK waits for
 * @param unhealthyAfterTimeouts consecutive timeouts that mark a path unhealthy (clause 6.7.1)
 * @param connectionTimeoutNs   silence with data outstanding that fails the connection (clause 6.7.3)
 * @param initialPathWindow     initial congestion window of each path, packets
 * @param initialConnectionWindow initial connection window, packets
 * @param maxConnectionWindow   largest connection window, packets
 * @param decreaseFactor        multiplicative decrease on CE (clause 10.1.1)
 * @param rateHintIntervalNs    how often the receiver recomputes its rate hint, and by default the window over
 *                              which it counts active senders (clause 8.2.4)
 * @param rateHintActiveWindowNs the window over which the receiver counts a connection active for the hint, if
 *                              longer than the interval; 0 (the default) for the interval, as clause 8.2.4 says
 * @param rateHintUtilization   share of the line rate the receiver hands out in hints, below 1 so that
 *                              queues built by transients drain (clause 8.2.4)
 * @param maxOutstandingMessages messages per stream the receiver tracks at once
 * @param maxPostedReceives     receives per stream that may be posted and not yet consumed
 * @param maxMessageLengthBytes the longest message the receiver accepts, its declared maximum message length
 *                              (clause 12.1.2); a longer WRITE, SEND or READ_REQUEST gets NACK MESSAGE_TOO_LONG
 *                              (Table 5-13)
 * @param receiverNotReadyRetryNs retry-after the receiver asks for when no receive is posted
 * @param entropySeed           seed of the source-port choices made when re-pathing
 * @param receiveStateBudgetBytes most bytes of receive-side state (streams, message rings, segment trackers)
 *                              that packets may make the endpoint allocate; each connection has a reserve of it
 *                              that only its own packets use ({@link StateBudget}); a packet needing more than its
 *                              connection's reserve and the rest hold is dropped, counted in
 *                              {@link Counter#RX_DROPPED_NO_STATE} and not recorded
 * @param tailLossProbe         whether a path whose outstanding packets draw no ACK for two smoothed RTTs plus the
 *                              ACK delay sends a PROBE, and takes the PSNs sent before it that the probe's ACK
 *                              does not acknowledge as lost ({@link TailLossProbe}; on by default; the draft
 *                              permits it and a proposed clause would recommend it)
 * @param reorderTolerancePackets how many PSNs after a gap must be reported received before the PSN is deemed lost
 *                              (clause 6.3.3, at most 3; 0, the default, and 1 hold at once)
 * @param reorderToleranceNs    how long after the first ACK that shows a gap the PSN is deemed lost all the same, at
 *                              most a quarter of the path's smoothed RTT (clause 6.3.3; 0, the default, holds at once)
 * @param timeoutResendsOldestOnly on a retransmission timeout, resend only the path's oldest outstanding PSN, not every
 *                              outstanding one (clause 6.6.2 allows either, freedom F-11); false by default
 * @param flushedReceiveNamesSend  a receive a SEND has partly filled when its connection fails completes FLUSHED naming
 *     that SEND's MSN and message length, not neither (clause 6.7.4, freedom F-14)
 * @param choices               the other choices the draft leaves open and nothing declares ({@link OpenChoices};
 *                              {@link OpenChoices#STANDARD} by default)
 * @param features              the optional parts of the protocol the endpoint offers ({@link Feature}; all by
 *                              default), so that it can stand for a device that claims fewer profiles
 * @param defects               deliberate non-conformances to commit ({@link Defects#NONE} for the clean reference);
 *                              only {@code metaroce selftest} and defect-hunting runs set any
 */
public record EndpointConfig(
        long lineRateBitsPerSecond,
        int mtuBytes,
        int ipHeaderBytes,
        long minRtoNs,
        long initialRtoNs,
        long maxRtoNs,
        long ackDelayNs,
        int ackCoalescingCount,
        int unhealthyAfterTimeouts,
        long connectionTimeoutNs,
        int initialPathWindow,
        int initialConnectionWindow,
        int maxConnectionWindow,
        double decreaseFactor,
        long rateHintIntervalNs,
        long rateHintActiveWindowNs,
        double rateHintUtilization,
        int maxOutstandingMessages,
        int maxPostedReceives,
        long maxMessageLengthBytes,
        long receiverNotReadyRetryNs,
        long entropySeed,
        long receiveStateBudgetBytes,
        boolean tailLossProbe,
        int reorderTolerancePackets,
        long reorderToleranceNs,
        boolean timeoutResendsOldestOnly,
        boolean flushedReceiveNamesSend,
        OpenChoices choices,
        java.util.Set<Feature> features,
        Defects defects) {

    public EndpointConfig {
        java.util.Objects.requireNonNull(defects, "defects");
        java.util.Objects.requireNonNull(choices, "choices");
        features = java.util.Set.copyOf(features);
    }

    /**
     * The transport's seams for this configuration: the spec's answer at each, except where one of {@link #defects}
     * answers wrongly. This record carries the defects (for {@code hello} and the soft DUT); it is the one class of
     * the transport that knows of them, and only to hand them to {@link org.mrconf.transport.defects.DefectSeams}.
     */
    public TransportSeams seams() {
        return org.mrconf.transport.defects.DefectSeams.of(defects);
    }

    /**
     * Whether the declared reorder tolerance can hold a gap back at all (clause 6.3.3): both conditions are more than
     * an ACK that shows a gap already meets. Only then does the device list the clause.
     */
    public boolean reorderToleranceHoldsGaps() {
        return reorderTolerancePackets > 1 && reorderToleranceNs > 0;
    }

    /** Whether the endpoint offers {@code feature} (the profile it is). */
    public boolean offers(final Feature feature) {
        return features.contains(feature);
    }

    /** Defaults for a 100 Gbit/s data-centre NIC with 4 KiB WRITE payloads over IPv4. */
    /**
     * The largest connection window the reference keeps when none is configured: what 256 paths of 256 packets can carry,
     * so no peer can meet it and the reference declares no maximum (clause 10.1.2).
     */
    public static final int UNBOUNDED_CONNECTION_WINDOW = 65536;

    /** The IP header length of an IPv4 endpoint (no options). */
    public static final int IPV4_HEADER_BYTES = 20;
    /** The IP header length of an IPv6 endpoint (no extension headers, clause 4.1.2). */
    public static final int IPV6_HEADER_BYTES = 40;

    /** Whether the endpoint is configured for IPv6 ({@link Builder#ipv6(boolean)}). */
    public boolean ipv6() {
        return ipHeaderBytes == IPV6_HEADER_BYTES;
    }

    public static EndpointConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        final Builder b = new Builder();
        b.lineRateBitsPerSecond = lineRateBitsPerSecond;
        b.mtuBytes = mtuBytes;
        b.ipHeaderBytes = ipHeaderBytes;
        b.minRtoNs = minRtoNs;
        b.initialRtoNs = initialRtoNs;
        b.maxRtoNs = maxRtoNs;
        b.ackDelayNs = ackDelayNs;
        b.ackCoalescingCount = ackCoalescingCount;
        b.unhealthyAfterTimeouts = unhealthyAfterTimeouts;
        b.connectionTimeoutNs = connectionTimeoutNs;
        b.initialPathWindow = initialPathWindow;
        b.initialConnectionWindow = initialConnectionWindow;
        b.maxConnectionWindow = maxConnectionWindow;
        b.decreaseFactor = decreaseFactor;
        b.rateHintIntervalNs = rateHintIntervalNs;
        b.rateHintActiveWindowNs = rateHintActiveWindowNs;
        b.rateHintUtilization = rateHintUtilization;
        b.maxOutstandingMessages = maxOutstandingMessages;
        b.maxPostedReceives = maxPostedReceives;
        b.maxMessageLengthBytes = maxMessageLengthBytes;
        b.receiverNotReadyRetryNs = receiverNotReadyRetryNs;
        b.entropySeed = entropySeed;
        b.receiveStateBudgetBytes = receiveStateBudgetBytes;
        b.tailLossProbe = tailLossProbe;
        b.reorderTolerancePackets = reorderTolerancePackets;
        b.reorderToleranceNs = reorderToleranceNs;
        b.timeoutResendsOldestOnly = timeoutResendsOldestOnly;
        b.flushedReceiveNamesSend = flushedReceiveNamesSend;
        b.choices = choices;
        b.features = java.util.EnumSet.noneOf(Feature.class);
        b.features.addAll(features);
        b.defects = defects;
        return b;
    }

    /** Builds an {@link EndpointConfig}; every field starts at the default. */
    public static final class Builder {
        private long lineRateBitsPerSecond = 100_000_000_000L;
        private int mtuBytes = 4176;
        private int ipHeaderBytes = IPV4_HEADER_BYTES;
        private long minRtoNs = 100_000;
        private long initialRtoNs = 1_000_000;
        private long maxRtoNs = 100_000_000;
        private long ackDelayNs = 8_000;
        private int ackCoalescingCount = 16;
        private int unhealthyAfterTimeouts = 3;
        private long connectionTimeoutNs = 1_000_000_000L;
        private int initialPathWindow = 32;
        private int initialConnectionWindow = 1024;
        private int maxConnectionWindow = UNBOUNDED_CONNECTION_WINDOW;
        private double decreaseFactor = 0.5;
        private long rateHintIntervalNs = 10_000;
        private long rateHintActiveWindowNs;
        private double rateHintUtilization = 0.95;
        private int maxOutstandingMessages = 1024;
        private int maxPostedReceives = 4096;
        private long maxMessageLengthBytes = 1L << 30;
        private long receiverNotReadyRetryNs = 20_000;
        private long entropySeed = 1;
        private long receiveStateBudgetBytes = 64L << 20;
        private boolean tailLossProbe = true;
        private int reorderTolerancePackets;
        private long reorderToleranceNs;
        private boolean timeoutResendsOldestOnly;
        private boolean flushedReceiveNamesSend;
        private OpenChoices choices = OpenChoices.STANDARD;
        private java.util.Set<Feature> features = java.util.EnumSet.allOf(Feature.class);
        private Defects defects = Defects.NONE;

        private Builder() {}

        public Builder lineRate(final long bitsPerSecond) {
            this.lineRateBitsPerSecond = bitsPerSecond;
            return this;
        }

        public Builder mtu(final int bytes) {
            this.mtuBytes = bytes;
            return this;
        }

        public Builder ipv6(final boolean ipv6) {
            this.ipHeaderBytes = ipv6 ? IPV6_HEADER_BYTES : IPV4_HEADER_BYTES;
            return this;
        }

        public Builder timers(final long minRto, final long initialRto, final long maxRto) {
            this.minRtoNs = minRto;
            this.initialRtoNs = initialRto;
            this.maxRtoNs = maxRto;
            return this;
        }

        public Builder ackPolicy(final long delayNs, final int coalescingCount) {
            this.ackDelayNs = delayNs;
            this.ackCoalescingCount = coalescingCount;
            return this;
        }

        public Builder unhealthyAfterTimeouts(final int timeouts) {
            this.unhealthyAfterTimeouts = timeouts;
            return this;
        }

        public Builder connectionTimeout(final long ns) {
            this.connectionTimeoutNs = ns;
            return this;
        }

        public Builder windows(final int initialPath, final int initialConnection, final int maxConnection) {
            this.initialPathWindow = initialPath;
            this.initialConnectionWindow = initialConnection;
            this.maxConnectionWindow = maxConnection;
            return this;
        }

        public Builder decreaseFactor(final double factor) {
            this.decreaseFactor = factor;
            return this;
        }

        /** Counts a connection active for the rate hint if it sent data this recently (0: the hint interval). */
        public Builder rateHintActiveWindow(final long ns) {
            this.rateHintActiveWindowNs = ns;
            return this;
        }

        public Builder rateHintInterval(final long ns) {
            this.rateHintIntervalNs = ns;
            return this;
        }

        public Builder rateHintUtilization(final double share) {
            this.rateHintUtilization = share;
            return this;
        }

        public Builder limits(final int outstandingMessages, final int postedReceives) {
            this.maxOutstandingMessages = outstandingMessages;
            this.maxPostedReceives = postedReceives;
            return this;
        }

        /** The longest message the receiver accepts (clause 12.1.2). */
        public Builder maxMessageLength(final long bytes) {
            this.maxMessageLengthBytes = bytes;
            return this;
        }

        public Builder receiverNotReadyRetry(final long ns) {
            this.receiverNotReadyRetryNs = ns;
            return this;
        }

        public Builder entropySeed(final long seed) {
            this.entropySeed = seed;
            return this;
        }

        public Builder receiveStateBudget(final long bytes) {
            this.receiveStateBudgetBytes = bytes;
            return this;
        }

        /** Whether paths send tail-loss probes ({@link TailLossProbe}). */
        public Builder tailLossProbe(final boolean enabled) {
            this.tailLossProbe = enabled;
            return this;
        }

        /**
         * The reorder tolerance this sender declares (clause 6.3.3): a gap's PSN is deemed lost once {@code packets}
         * PSNs after it are reported received or {@code ns} after the first ACK that shows the gap, whichever first.
         */
        public Builder reorderTolerance(final int packets, final long ns) {
            if (packets < 0 || packets > 3 || ns < 0) {
                throw new IllegalArgumentException("a reorder tolerance is 0 to 3 packets and a time of at least 0");
            }
            this.reorderTolerancePackets = packets;
            this.reorderToleranceNs = ns;
            return this;
        }

        /**
         * Whether a receive a SEND has partly filled when its connection fails completes FLUSHED naming that SEND's MSN
         * and message length, rather than neither (clause 6.7.4, freedom F-14).
         */
        public Builder flushedReceiveNamesSend(final boolean namesSend) {
            this.flushedReceiveNamesSend = namesSend;
            return this;
        }

        /**
         * Whether a retransmission timeout resends only the path's oldest outstanding PSN (clause 6.6.2's least, freedom
         * F-11) rather than every outstanding PSN of the path (the default).
         */
        public Builder timeoutResendsOldestOnly(final boolean oldestOnly) {
            this.timeoutResendsOldestOnly = oldestOnly;
            return this;
        }

        /** The choices the draft leaves open that nothing declares ({@link OpenChoices}). */
        public Builder choices(final OpenChoices open) {
            this.choices = java.util.Objects.requireNonNull(open, "choices");
            return this;
        }

        /** Offers only {@code offered} of the optional features, as a device that claims fewer profiles. */
        public Builder features(final java.util.Set<Feature> offered) {
            this.features = java.util.EnumSet.noneOf(Feature.class);
            this.features.addAll(offered);
            return this;
        }

        /** Deliberate non-conformances to commit (self-validation only). */
        public Builder defects(final Defects active) {
            this.defects = active;
            return this;
        }

        public EndpointConfig build() {
            if (receiveStateBudgetBytes < 1) {
                throw new IllegalArgumentException("receive state budget must be positive");
            }
            if (mtuBytes < ipHeaderBytes + 8 + 52 + 4 + 1) {
                throw new IllegalArgumentException("mtu " + mtuBytes + " leaves no room for a payload");
            }
            if (minRtoNs <= 0 || minRtoNs > initialRtoNs || initialRtoNs > maxRtoNs) {
                throw new IllegalArgumentException("timers must satisfy 0 < minRto <= initialRto <= maxRto");
            }
            if (!(rateHintUtilization > 0 && rateHintUtilization <= 1)) {
                throw new IllegalArgumentException("rate hint utilization must be in (0, 1]");
            }
            if (maxMessageLengthBytes < 1 || maxMessageLengthBytes > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("maximum message length must be 1 to 2^32 - 1 bytes");
            }
            if (Integer.bitCount(maxOutstandingMessages) != 1 || Integer.bitCount(maxPostedReceives) != 1) {
                throw new IllegalArgumentException("limits must be powers of two");
            }
            return new EndpointConfig(
                    lineRateBitsPerSecond,
                    mtuBytes,
                    ipHeaderBytes,
                    minRtoNs,
                    initialRtoNs,
                    maxRtoNs,
                    ackDelayNs,
                    ackCoalescingCount,
                    unhealthyAfterTimeouts,
                    connectionTimeoutNs,
                    initialPathWindow,
                    initialConnectionWindow,
                    maxConnectionWindow,
                    decreaseFactor,
                    rateHintIntervalNs,
                    rateHintActiveWindowNs,
                    rateHintUtilization,
                    maxOutstandingMessages,
                    maxPostedReceives,
                    maxMessageLengthBytes,
                    receiverNotReadyRetryNs,
                    entropySeed,
                    receiveStateBudgetBytes,
                    tailLossProbe,
                    reorderTolerancePackets,
                    reorderToleranceNs,
                    timeoutResendsOldestOnly,
                    flushedReceiveNamesSend,
                    choices,
                    features,
                    defects);
        }
    }

    /**
     * Bytes a MetaRoCE packet of {@code packetLength} occupies on the wire: IP and UDP headers plus 38 of
     * Ethernet (header, FCS, preamble and inter-frame gap). The pacer charges these, so that pacing at
     * line rate really is line rate and no queue builds in the NIC.
     */
    int wireBytes(final int packetLength) {
        return packetLength + ipHeaderBytes + 8 + ETHERNET_OVERHEAD_BYTES;
    }

    /** Ethernet header 14, FCS 4, preamble and start delimiter 8, inter-frame gap 12. */
    public static final int ETHERNET_OVERHEAD_BYTES = 38;

    /** Largest payload a packet of an opcode with this header length may carry (clause 4.1.9). */
    int maxPayload(final int headerLength) {
        return Math.min(0xFFFF, mtuBytes - ipHeaderBytes - 8 - headerLength - 4);
    }
}

package org.mrconf.baseline;

import org.mrconf.net.EcnCodepoint;

/**
 * Settings shared by {@link GbnRequester} and {@link GbnResponder}; build with {@link #builder()}.
 *
 * @param mtuPayloadBytes   payload bytes per DATA packet (the last packet of a message may carry fewer)
 * @param windowPackets     most DATA packets outstanding (sent, not acknowledged)
 * @param ackEveryPackets   the responder acknowledges after this many in-order packets, or at once for a
 *                          packet flagged LAST or ACK_REQUEST
 * @param rtoNs             the first retransmission timeout; see {@link #rtoFor(long)}
 * @param maxRtoNs          the exponential backoff stops doubling here
 * @param maxRetries        consecutive timeouts without progress that are retried; one more fails the
 *                          requester, like RoCE's retry count
 * @param sendRateBps       the requester paces DATA at this line rate, like a NIC; 0 sends a window at once
 * @param wireOverheadBytes framing bytes per packet, for pacing; match the fabric's
 * @param initialPsn        the first DATA PSN (32-bit)
 * @param ecn               the IP ECN field on every packet; the baseline never reacts to CE
 * @param patternPayload    the requester fills payloads with {@link GbnPayload} and the responder checks it
 */
public record GbnConfig(
        int mtuPayloadBytes,
        int windowPackets,
        int ackEveryPackets,
        long rtoNs,
        long maxRtoNs,
        int maxRetries,
        long sendRateBps,
        int wireOverheadBytes,
        long initialPsn,
        int ecn,
        boolean patternPayload) {

    public static final int DEFAULT_MTU_PAYLOAD_BYTES = 4096;
    /**
     * 256 packets (1 MiB at 4 KiB): fills 100 Gbit/s up to an 80 µs round trip, several times a
     * data-centre RTT.
     */
    public static final int DEFAULT_WINDOW_PACKETS = 256;

    public static final int DEFAULT_ACK_EVERY_PACKETS = 8;
    /** 100 µs, the floor of {@link #rtoFor(long)}. */
    public static final long DEFAULT_RTO_NS = 100_000L;

    public static final long DEFAULT_MAX_RTO_NS = 1_000_000_000L;
    /** 7, the largest RoCE retry count. */
    public static final int DEFAULT_MAX_RETRIES = 7;

    public static final long DEFAULT_SEND_RATE_BPS = 100_000_000_000L;
    public static final int DEFAULT_WIRE_OVERHEAD_BYTES = 78;

    public GbnConfig {
        if (mtuPayloadBytes <= 0 || mtuPayloadBytes > GbnHeader.MAX_PAYLOAD_LENGTH) {
            throw new IllegalArgumentException(
                    "mtuPayloadBytes=" + mtuPayloadBytes + " must be in 1.." + GbnHeader.MAX_PAYLOAD_LENGTH);
        }
        if (windowPackets <= 0) {
            throw new IllegalArgumentException("windowPackets=" + windowPackets + " must be positive");
        }
        if (ackEveryPackets <= 0) {
            throw new IllegalArgumentException("ackEveryPackets=" + ackEveryPackets + " must be positive");
        }
        if (rtoNs <= 0 || maxRtoNs < rtoNs) {
            throw new IllegalArgumentException(
                    "rtoNs=" + rtoNs + " maxRtoNs=" + maxRtoNs + ": need 0 < rtoNs <= maxRtoNs");
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries=" + maxRetries + " must not be negative");
        }
        if (sendRateBps < 0 || wireOverheadBytes < 0) {
            throw new IllegalArgumentException(
                    "sendRateBps=" + sendRateBps + " wireOverheadBytes=" + wireOverheadBytes + " must not be negative");
        }
        if (initialPsn < 0 || initialPsn > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("initialPsn=" + initialPsn + " must fit in 32 bits");
        }
        if (ecn < 0 || ecn > EcnCodepoint.CE) {
            throw new IllegalArgumentException("ecn=" + ecn + " must be 0..3");
        }
    }

    public static GbnConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The usual timeout for a round-trip time: {@code max(3 * rttNs, 100 µs)}. */
    public static long rtoFor(final long rttNs) {
        return Math.max(3 * rttNs, DEFAULT_RTO_NS);
    }

    /** The window, in packets, that fills {@code rateBps} over {@code rttNs}: the bandwidth-delay product. */
    public static int windowFor(final long rateBps, final long rttNs, final int mtuPayloadBytes) {
        final double bdpBytes = rateBps / 8e9 * rttNs;
        return (int) Math.max(1, Math.ceil(bdpBytes / mtuPayloadBytes));
    }

    /** DATA packets a message of {@code lengthBytes} takes; an empty message still takes one. */
    public int packetsFor(final int lengthBytes) {
        return lengthBytes == 0 ? 1 : (int) ((lengthBytes + (long) mtuPayloadBytes - 1) / mtuPayloadBytes);
    }

    /** Collects a {@link GbnConfig}; every setter is optional. */
    public static final class Builder {
        private int mtuPayloadBytes = DEFAULT_MTU_PAYLOAD_BYTES;
        private int windowPackets = DEFAULT_WINDOW_PACKETS;
        private int ackEveryPackets = DEFAULT_ACK_EVERY_PACKETS;
        private long rtoNs = DEFAULT_RTO_NS;
        private long maxRtoNs = DEFAULT_MAX_RTO_NS;
        private int maxRetries = DEFAULT_MAX_RETRIES;
        private long sendRateBps = DEFAULT_SEND_RATE_BPS;
        private int wireOverheadBytes = DEFAULT_WIRE_OVERHEAD_BYTES;
        private long initialPsn;
        private int ecn = EcnCodepoint.ECT_0;
        private boolean patternPayload = true;

        private Builder() {}

        public Builder mtuPayloadBytes(final int value) {
            mtuPayloadBytes = value;
            return this;
        }

        public Builder windowPackets(final int value) {
            windowPackets = value;
            return this;
        }

        public Builder ackEveryPackets(final int value) {
            ackEveryPackets = value;
            return this;
        }

        public Builder rtoNs(final long value) {
            rtoNs = value;
            return this;
        }

        public Builder maxRtoNs(final long value) {
            maxRtoNs = value;
            return this;
        }

        public Builder maxRetries(final int value) {
            maxRetries = value;
            return this;
        }

        public Builder sendRateBps(final long value) {
            sendRateBps = value;
            return this;
        }

        public Builder wireOverheadBytes(final int value) {
            wireOverheadBytes = value;
            return this;
        }

        public Builder initialPsn(final long value) {
            initialPsn = value & 0xFFFF_FFFFL;
            return this;
        }

        public Builder ecn(final int value) {
            ecn = value;
            return this;
        }

        public Builder patternPayload(final boolean value) {
            patternPayload = value;
            return this;
        }

        public GbnConfig build() {
            return new GbnConfig(
                    mtuPayloadBytes,
                    windowPackets,
                    ackEveryPackets,
                    rtoNs,
                    maxRtoNs,
                    maxRetries,
                    sendRateBps,
                    wireOverheadBytes,
                    initialPsn,
                    ecn,
                    patternPayload);
        }
    }
}

package org.mrconf.analyze;

import java.util.Arrays;

/**
 * What the capture showed of one path in one direction: the PSNs its sender put on the wire (a ring of the most recent
 * {@link #WINDOW}, so memory stays bounded whatever the capture's length), what its ACKs reported, and its entropy.
 * All PSN arithmetic is serial, modulo 2^32 (spec clause 2.4).
 */
final class PathTrack {
    /** PSNs remembered per path: four times the 256 a sender may have outstanding (clause 6.1.3). About 85 KB a path. */
    static final int WINDOW = 1024;

    private static final long MASK = 0xFFFF_FFFFL;
    private static final long HALF = 1L << 31;
    private static final int RECENT_PORTS = 8;
    private static final int RECENT_PROBES = 16;

    /** The end that sends this path's data, and the end that acknowledges it. */
    final String sender;

    final String receiver;

    /** How reports name the path: the receiver's connection id and the path id. */
    final String label;

    private final long[] psn = new long[WINDOW];
    private final boolean[] present = new boolean[WINDOW];
    final long[] firstFrame = new long[WINDOW];
    final long[] lastFrame = new long[WINDOW];
    final long[] lastSendNs = new long[WINDOW];
    final long[] originalTimestamp = new long[WINDOW];
    final long[] latestTimestamp = new long[WINDOW];
    final int[] fieldsDigest = new int[WINDOW];
    final int[] stream = new int[WINDOW];
    final long[] msn = new long[WINDOW];
    /** When an ACK first reported the PSN received; -1 while none has. */
    final long[] ackedAtNs = new long[WINDOW];

    final long[] ackedFrame = new long[WINDOW];
    /** When an ACK last reported the PSN missing while reporting a later one received (clause 6.3.1). */
    final long[] gapSeenNs = new long[WINDOW];
    /** The run of timeout retransmissions in which the PSN was last resent; 0 for none. */
    final int[] runOfSlot = new int[WINDOW];

    /** The interval before the latest timeout retransmission of the PSN; 0 when it had none. */
    final long[] timeoutIntervalNs = new long[WINDOW];

    /** The first new PSN the capture showed: earlier PSNs were sent before the capture began. */
    long firstPsn = -1;

    long nextNewPsn = -1;
    long highestPsn = -1;
    long cumulativePsn = -1;
    long lastAckNs = Long.MIN_VALUE;
    int entropy = -1;
    /** The current run of timeout retransmissions (one expiry may resend several PSNs); 0 outside such a run. */
    int timeoutRun;

    private int runs;

    private final int[] recentPorts = new int[RECENT_PORTS];
    private int recentPortCount;
    private final long[] probeTimestamps = new long[RECENT_PROBES];
    private int probeCount;

    PathTrack(final String sender, final String receiver, final String label) {
        this.sender = sender;
        this.receiver = receiver;
        this.label = label;
        Arrays.fill(ackedAtNs, -1);
    }

    /** Starts a new run of timeout retransmissions: a new expiry. */
    int startTimeoutRun() {
        timeoutRun = ++runs;
        return timeoutRun;
    }

    static int slot(final long psn) {
        return (int) (psn & (WINDOW - 1));
    }

    /** Whether the PSN was put on the wire in the capture and is still remembered. */
    boolean sent(final long value) {
        final int slot = slot(value);
        return present[slot] && psn[slot] == value;
    }

    /** Whether the capture can tell about this PSN: it lies after the first PSN the capture showed, within memory. */
    boolean judgeable(final long value) {
        if (firstPsn < 0 || before(value, firstPsn)) {
            return false; // sent before the capture began, if at all
        }
        // Beyond the highest PSN sent: certainly never sent. Behind it: only while the ring still remembers it.
        return after(value, highestPsn) || distance(value, highestPsn) < WINDOW - 256;
    }

    void remember(
            final long value,
            final long frame,
            final long nowNs,
            final long timestamp,
            final int digest,
            final int streamId,
            final long messageSequenceNumber) {
        final int slot = slot(value);
        psn[slot] = value;
        present[slot] = true;
        firstFrame[slot] = frame;
        lastFrame[slot] = frame;
        lastSendNs[slot] = nowNs;
        originalTimestamp[slot] = timestamp;
        latestTimestamp[slot] = timestamp;
        fieldsDigest[slot] = digest;
        stream[slot] = streamId;
        msn[slot] = messageSequenceNumber;
        ackedAtNs[slot] = -1;
        ackedFrame[slot] = 0;
        gapSeenNs[slot] = Long.MIN_VALUE;
        runOfSlot[slot] = 0;
        timeoutIntervalNs[slot] = 0;
        if (firstPsn < 0) {
            firstPsn = value;
        }
        if (highestPsn < 0 || after(value, highestPsn)) {
            highestPsn = value;
        }
    }

    void onPacketPort(final int port) {
        entropy = port;
        for (int i = 0; i < recentPortCount; i++) {
            if (recentPorts[i] == port) {
                return;
            }
        }
        recentPorts[recentPortCount % RECENT_PORTS] = port;
        recentPortCount = Math.min(recentPortCount + 1, RECENT_PORTS * 2);
    }

    boolean recentPort(final int port) {
        for (int i = 0; i < Math.min(recentPortCount, RECENT_PORTS); i++) {
            if (recentPorts[i] == port) {
                return true;
            }
        }
        return false;
    }

    void onProbe(final long timestamp) {
        probeTimestamps[probeCount++ % RECENT_PROBES] = timestamp;
    }

    /** Whether {@code timestamp} is the transmit timestamp of a packet of this path the capture showed. */
    boolean sentTimestamp(final long timestamp, final long cumulative, final long highestSacked) {
        if (highestSacked >= 0 && matches(highestSacked, timestamp)) {
            return true;
        }
        final long lastInOrder = (cumulative - 1) & MASK;
        if (matches(lastInOrder, timestamp)) {
            return true;
        }
        for (int i = 0; i < Math.min(probeCount, RECENT_PROBES); i++) {
            if (probeTimestamps[i] == timestamp) {
                return true;
            }
        }
        // A duplicate or a packet whose SACK bit another ACK reported: any remembered packet of the path.
        for (int back = 0; back < WINDOW; back++) {
            final int slot = slot(highestPsn - back);
            if (present[slot] && (originalTimestamp[slot] == timestamp || latestTimestamp[slot] == timestamp)) {
                return true;
            }
        }
        return false;
    }

    private boolean matches(final long value, final long timestamp) {
        final int slot = slot(value);
        return present[slot]
                && psn[slot] == value
                && (originalTimestamp[slot] == timestamp || latestTimestamp[slot] == timestamp);
    }

    static boolean before(final long a, final long b) {
        return a != b && ((b - a) & MASK) < HALF;
    }

    static boolean after(final long a, final long b) {
        return before(b, a);
    }

    /** Serial distance from a forward to b. */
    static long distance(final long a, final long b) {
        return (b - a) & MASK;
    }
}

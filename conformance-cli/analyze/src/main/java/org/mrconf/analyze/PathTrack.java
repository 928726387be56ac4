package org.mrconf.analyze;

import java.util.Arrays;

/**
 * What the capture showed of one path in one direction: the PSNs its sender put on the wire (a ring of the most recent
 * {@link #WINDOW}, so memory stays bounded whatever the capture's length), what its ACKs reported, and its entropy.
 * All PSN arithmetic is serial, modulo 2^32 (spec clause 2.4).
 */
final class PathTrack {
    /** PSNs remembered per path: four times the 256 a sender may have outstanding (clause 6.1.3). About 140 KB a path. */
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
    private final long[] originalTimestamp = new long[WINDOW];
    final long[] latestTimestamp = new long[WINDOW];
    /**
     * The transmit timestamps of the path's last {@link #WINDOW} transmissions, originals and resends alike (an ACK
     * may echo any of them, clause 8.2.1), as a ring and, for O(1) lookup, a multiset of the same values.
     */
    private final long[] recentTimestamps = new long[WINDOW];

    private final TimestampSet timestamps = new TimestampSet(WINDOW);
    private long transmissions;

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

    /** Whether the PSN's latest transmission was a resend that no ACK or NACK asked for. */
    final boolean[] timerResent = new boolean[WINDOW];

    /** {@link #portChanges()} when the PSN was last transmitted. */
    final long[] portChangesAtSend = new long[WINDOW];

    /** The first new PSN the capture showed: earlier PSNs were sent before the capture began. */
    long firstPsn = -1;

    long nextNewPsn = -1;
    long highestPsn = -1;
    long cumulativePsn = -1;
    long lastAckNs = Long.MIN_VALUE;
    int entropy = -1;
    /** The current run of timeout retransmissions (one expiry may resend several PSNs); 0 outside such a run. */
    int timeoutRun;

    /** When the latest run of timeout retransmissions (expiry) began, and its first frame; MIN_VALUE for none. */
    long runStartNs = Long.MIN_VALUE;

    long previousRunFrame;
    /** The time between the last two expiries with no ACK of the path between them; 0 when unknown. */
    long expiryIntervalNs;

    private int runs;
    private long portChanges;

    private final int[] recentPorts = new int[RECENT_PORTS];
    private int recentPortCount;
    private int nextPort;
    private final long[] probeTimestamps = new long[RECENT_PROBES];
    private int probeCount;

    PathTrack(final String sender, final String receiver, final String label) {
        this.sender = sender;
        this.receiver = receiver;
        this.label = label;
        Arrays.fill(ackedAtNs, -1);
    }

    /** Starts a new run of timeout retransmissions: a new expiry, seen first at {@code frame}. */
    void startTimeoutRun(final long nowNs, final long frame) {
        timeoutRun = ++runs;
        runStartNs = nowNs;
        previousRunFrame = frame;
    }

    /** A new PSN was sent: the timer's expiries so far are over (the next expiry starts a fresh doubling). */
    void endTimeoutRun() {
        timeoutRun = 0;
        runStartNs = Long.MIN_VALUE;
        expiryIntervalNs = 0;
    }

    /** How many times the path's source port has changed. */
    long portChanges() {
        return portChanges;
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
        transmitted(timestamp);
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
        timerResent[slot] = false;
        portChangesAtSend[slot] = portChanges;
        if (firstPsn < 0) {
            firstPsn = value;
        }
        if (highestPsn < 0 || after(value, highestPsn)) {
            highestPsn = value;
        }
    }

    /** A retransmission of the PSN in {@code slot} carried {@code timestamp}. */
    void resent(final int slot, final long timestamp) {
        latestTimestamp[slot] = timestamp;
        transmitted(timestamp);
    }

    private void transmitted(final long timestamp) {
        final int index = (int) (transmissions++ % WINDOW);
        if (transmissions > WINDOW) {
            timestamps.remove(recentTimestamps[index]); // the oldest transmission gives way
        }
        recentTimestamps[index] = timestamp;
        timestamps.add(timestamp);
    }

    /** Records a packet's UDP source port: the path's entropy now, and one of its last {@value #RECENT_PORTS}. */
    void onPacketPort(final int port) {
        if (entropy >= 0 && port != entropy) {
            portChanges++;
        }
        entropy = port;
        if (recentPort(port)) {
            return;
        }
        // A ring: the oldest port gives way (a path that changed entropy more than RECENT_PORTS times has moved on).
        recentPorts[nextPort] = port;
        nextPort = (nextPort + 1) % RECENT_PORTS;
        recentPortCount = Math.min(recentPortCount + 1, RECENT_PORTS);
    }

    boolean recentPort(final int port) {
        for (int i = 0; i < recentPortCount; i++) {
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
        // A duplicate, an earlier transmission, or a packet whose SACK bit another ACK reported: any of the path's
        // recent transmissions, in O(1).
        return timestamps.contains(timestamp);
    }

    /**
     * Whether {@code timestamp} (not found by {@link #sentTimestamp}) is older than every transmission the path still
     * remembers, or than the first the capture showed: it may be a forgotten packet's, so it cannot be judged. The
     * sender's clock runs forward, so transmissions in capture order carry increasing timestamps (modulo 2^32).
     */
    boolean olderThanMemory(final long timestamp) {
        if (transmissions == 0) {
            return true;
        }
        final long oldest = recentTimestamps[transmissions > WINDOW ? (int) (transmissions % WINDOW) : 0];
        return before(timestamp & MASK, oldest & MASK);
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

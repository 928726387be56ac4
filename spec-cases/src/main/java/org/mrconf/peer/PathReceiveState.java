package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.BitSet;
import org.apiguardian.api.API;

/**
 * The receive state of one path as the tester peer keeps it (spec clause 6.2.1): the cumulative PSN and which PSNs
 * of the 256-PSN window after it have arrived, so the peer can send the DUT correct ACKs. Not thread-safe.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PathReceiveState {
    /** The window a SACK bitmap describes (clause 6.1.4). */
    public static final int WINDOW = 256;

    /** What a PSN was on arrival. */
    public enum Arrival {
        /** In the window and not seen before. */
        NEW,
        /** Before the cumulative PSN or already seen (clause 6.5.1). */
        DUPLICATE,
        /** At or beyond cumulative PSN + 256 (clause 6.1.4). */
        OUT_OF_WINDOW
    }

    private long cumulativePsn;
    private BitSet received = new BitSet(WINDOW);

    public PathReceiveState(long initialPsn) {
        this.cumulativePsn = initialPsn & Psn.MASK;
    }

    /** Records a data packet or READ_REQUEST with this PSN and advances the cumulative PSN (clause 6.2.2). */
    public Arrival onPsn(long psn) {
        long offset = Psn.distance(cumulativePsn, psn);
        if (Psn.precedes(psn, cumulativePsn)) {
            return Arrival.DUPLICATE;
        }
        if (offset >= WINDOW) {
            return Arrival.OUT_OF_WINDOW;
        }
        if (received.get((int) offset)) {
            return Arrival.DUPLICATE;
        }
        received.set((int) offset);
        int advance = received.nextClearBit(0);
        if (advance > 0) {
            received = received.get(advance, Math.max(advance, received.length()));
            cumulativePsn = Psn.add(cumulativePsn, advance);
        }
        return Arrival.NEW;
    }

    /** The lowest PSN not yet received. */
    public long cumulativePsn() {
        return cumulativePsn;
    }

    /** The SACK bits to report: bit i for PSN cumulative + i, 1 to 255. */
    public int[] sackBits() {
        return received.stream().filter(bit -> bit > 0 && bit < WINDOW).toArray();
    }

    /** How many PSNs after the cumulative PSN are received: the SACK bits {@link #sackBits()} would report. */
    public int sackCount() {
        return received.cardinality();
    }

    public boolean hasReceived(long psn) {
        if (Psn.precedes(psn, cumulativePsn)) {
            return true;
        }
        long offset = Psn.distance(cumulativePsn, psn);
        return offset < WINDOW && received.get((int) offset);
    }
}

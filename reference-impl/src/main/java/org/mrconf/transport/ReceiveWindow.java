package org.mrconf.transport;

import org.mrconf.wire.AckFlyweight;

/**
 * The receive side of one path's PSN space: the cumulative PSN and which of the 256 PSNs from it have
 * arrived (spec clauses 6.1.4, 6.2.1, 6.2.2). Bits live in a 256-bit ring indexed by {@code psn & 255},
 * so recording a packet and advancing the cumulative PSN touch no memory but four longs.
 */
final class ReceiveWindow {
    /** PSNs the window spans from the cumulative PSN, exactly what a SACK bitmap can report. */
    static final int SIZE = 256;

    /** How a PSN relates to the window. */
    enum Position {
        NEW,
        DUPLICATE,
        BEYOND_WINDOW
    }

    private final long[] ring = new long[SIZE / Long.SIZE];
    private long cumulativePsn;

    ReceiveWindow(final long initialPsn) {
        this.cumulativePsn = initialPsn & Serial.MASK;
    }

    /** The lowest PSN not yet received. */
    long cumulativePsn() {
        return cumulativePsn;
    }

    /** Classifies a PSN without changing anything. */
    Position classify(final long psn) {
        final long distance = Serial.distance(cumulativePsn, psn);
        if (distance >= (1L << 31)) {
            return Position.DUPLICATE; // precedes the cumulative PSN: received long ago
        }
        if (distance >= SIZE) {
            return Position.BEYOND_WINDOW;
        }
        return isSet(psn) ? Position.DUPLICATE : Position.NEW;
    }

    /** Records a NEW PSN as received and advances the cumulative PSN over every consecutive one. */
    void record(final long psn) {
        set(psn);
        while (isSet(cumulativePsn)) {
            clear(cumulativePsn);
            cumulativePsn = Serial.add(cumulativePsn, 1);
        }
    }

    /** Moves the cumulative PSN to {@code psn} whatever is missing before it (defect CUMULATIVE_OVER_GAP only). */
    void skipTo(final long psn) {
        while (cumulativePsn != psn) {
            clear(cumulativePsn);
            cumulativePsn = Serial.add(cumulativePsn, 1);
        }
        while (isSet(cumulativePsn)) {
            clear(cumulativePsn);
            cumulativePsn = Serial.add(cumulativePsn, 1);
        }
    }

    /** Whether any PSN after the cumulative PSN has arrived, i.e. there is a gap. */
    boolean hasGap() {
        for (final long word : ring) {
            if (word != 0) {
                return true;
            }
        }
        return false;
    }

    /** Writes the cumulative PSN and the SACK bitmap (bit i = PSN cumulative + i) into an ACK. */
    void writeTo(final AckFlyweight ack) {
        ack.cumulativePsn(cumulativePsn);
        final int start = (int) (cumulativePsn & (SIZE - 1));
        final int shift = start & 63;
        final int firstWord = start >>> 6;
        for (int w = 0; w < ring.length; w++) {
            final long low = ring[(firstWord + w) & 3] >>> shift;
            final long high = shift == 0 ? 0 : ring[(firstWord + w + 1) & 3] << (64 - shift);
            ack.sackWord(w, low | high);
        }
    }

    private boolean isSet(final long psn) {
        final int index = (int) (psn & (SIZE - 1));
        return (ring[index >>> 6] & (1L << index)) != 0;
    }

    private void set(final long psn) {
        final int index = (int) (psn & (SIZE - 1));
        ring[index >>> 6] |= 1L << index;
    }

    private void clear(final long psn) {
        final int index = (int) (psn & (SIZE - 1));
        ring[index >>> 6] &= ~(1L << index);
    }
}

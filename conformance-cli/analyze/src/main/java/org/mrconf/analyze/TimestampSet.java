package org.mrconf.analyze;

/**
 * The 32-bit transmit timestamps of the packets a {@link PathTrack} remembers, as a multiset, so that an ACK's echoed
 * timestamp is looked up in O(1) and without allocation, however many packets the path remembers. Open addressing
 * with linear probing over a fixed table of twice the entries it can hold (two per remembered PSN: the original's
 * and the latest transmission's timestamp), and backward-shift deletion, so it never fills with tombstones.
 */
final class TimestampSet {
    private static final long COUNT_UNIT = 1L << 32;
    private static final long TIMESTAMP_MASK = 0xFFFF_FFFFL;

    /** Each entry: count in the high 32 bits (at least 1), timestamp in the low 32; 0 is empty. */
    private final long[] table;

    private final int mask;

    /** @param capacity the most timestamps held at once (counting repeats); the table is twice that, a power of 2 */
    TimestampSet(final int capacity) {
        final int size = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1;
        table = new long[size];
        mask = size - 1;
    }

    void add(final long timestamp) {
        final long key = timestamp & TIMESTAMP_MASK;
        int index = home(key);
        while (table[index] != 0) {
            if ((table[index] & TIMESTAMP_MASK) == key) {
                table[index] += COUNT_UNIT;
                return;
            }
            index = (index + 1) & mask;
        }
        table[index] = COUNT_UNIT | key;
    }

    /** Removes one occurrence of {@code timestamp}; nothing when it is not held. */
    void remove(final long timestamp) {
        final int index = find(timestamp & TIMESTAMP_MASK);
        if (index < 0) {
            return;
        }
        if ((table[index] >>> 32) > 1) {
            table[index] -= COUNT_UNIT;
            return;
        }
        // Backward-shift deletion: pull later entries of the probe run into the hole so lookups still find them.
        int hole = index;
        int next = (hole + 1) & mask;
        while (table[next] != 0) {
            final int home = home(table[next] & TIMESTAMP_MASK);
            // Move the entry when its home does not lie cyclically in (hole, next].
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                table[hole] = table[next];
                hole = next;
            }
            next = (next + 1) & mask;
        }
        table[hole] = 0;
    }

    boolean contains(final long timestamp) {
        return find(timestamp & TIMESTAMP_MASK) >= 0;
    }

    private int find(final long key) {
        int index = home(key);
        while (table[index] != 0) {
            if ((table[index] & TIMESTAMP_MASK) == key) {
                return index;
            }
            index = (index + 1) & mask;
        }
        return -1;
    }

    private int home(final long key) {
        // Fibonacci hashing: consecutive timestamps spread over the table.
        return (int) ((key * 0x9E37_79B9_7F4A_7C15L) >>> 40) & mask;
    }
}

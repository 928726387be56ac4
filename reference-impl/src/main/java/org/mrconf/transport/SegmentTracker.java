package org.mrconf.transport;

/**
 * Which bytes of one message have arrived, as a sorted set of disjoint byte ranges, so that a segment
 * that arrives twice under different PSNs (a peer's bug or a stale copy), or overlapping segments, are
 * never counted twice and cannot complete a message early (spec clauses 7.5.1, 8.1.1). In-order
 * arrivals keep a single range; out-of-order ones add a few. One per message in progress, allocated
 * when its first packet arrives; marking allocates only when more ranges than ever before are open.
 */
final class SegmentTracker {
    /**
     * Most disjoint ranges one message may have open: a receive window of 256 PSNs per path leaves a
     * legitimate sender far fewer gaps; a peer that sends every other byte cannot grow this without bound.
     */
    static final int MAX_RANGES = 256;

    private final long length;
    private long[] starts = new long[4];
    private long[] ends = new long[4];
    private int count;

    SegmentTracker(final long messageLength) {
        this.length = messageLength;
    }

    /**
     * Marks the bytes [offset, offset + byteCount) as arrived; false, marking nothing, if that would open
     * more than {@link #MAX_RANGES} disjoint ranges.
     */
    boolean mark(final long offset, final int byteCount) {
        if (byteCount == 0) {
            return true;
        }
        if (count == 1 && ends[0] == offset && starts[0] <= offset) {
            ends[0] = offset + byteCount; // the common case: the next segment in order
            return true;
        }
        long start = offset;
        long end = offset + byteCount;
        int first = 0;
        while (first < count && ends[first] < start) { // ranges are few: a linear scan is cheapest
            first++;
        }
        int last = first;
        while (last < count && starts[last] <= end) {
            start = Math.min(start, starts[last]);
            end = Math.max(end, ends[last]);
            last++;
        }
        final int merged = last - first;
        if (merged == 0) {
            if (count == MAX_RANGES) {
                return false;
            }
            insert(first, start, end);
        } else {
            starts[first] = start;
            ends[first] = end;
            final int tail = count - last;
            System.arraycopy(starts, last, starts, first + 1, tail);
            System.arraycopy(ends, last, ends, first + 1, tail);
            count -= merged - 1;
        }
        return true;
    }

    /** Whether every byte has arrived; a zero-length message is complete at once. */
    boolean isComplete() {
        return length == 0 || (count == 1 && starts[0] == 0 && ends[0] >= length);
    }

    private void insert(final int at, final long start, final long end) {
        if (count == starts.length) {
            starts = java.util.Arrays.copyOf(starts, count * 2);
            ends = java.util.Arrays.copyOf(ends, count * 2);
        }
        System.arraycopy(starts, at, starts, at + 1, count - at);
        System.arraycopy(ends, at, ends, at + 1, count - at);
        starts[at] = start;
        ends[at] = end;
        count++;
    }
}

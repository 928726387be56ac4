package org.mrconf.baseline;

import java.util.Arrays;

/**
 * The requester's posted messages in order: each one's packet range, length, post and completion time.
 * Messages occupy consecutive packet indices, so the message of any packet is a binary search away.
 */
final class MessageLog {
    private long[] firstIndex = new long[16];
    private long[] endIndex = new long[16];
    private int[] length = new int[16];
    private long[] postNs = new long[16];
    private long[] completionNs = new long[16];
    private int count;
    private int completed;

    /** Adds a message covering packet indices {@code [first, end)}; returns its id. */
    int add(final long first, final long end, final int lengthBytes, final long nowNs) {
        if (count == firstIndex.length) {
            final int capacity = count * 2;
            firstIndex = Arrays.copyOf(firstIndex, capacity);
            endIndex = Arrays.copyOf(endIndex, capacity);
            length = Arrays.copyOf(length, capacity);
            postNs = Arrays.copyOf(postNs, capacity);
            completionNs = Arrays.copyOf(completionNs, capacity);
        }
        firstIndex[count] = first;
        endIndex[count] = end;
        length[count] = lengthBytes;
        postNs[count] = nowNs;
        completionNs[count] = GbnRequester.NOT_COMPLETE;
        return count++;
    }

    /** The message holding packet {@code index}, which must have been posted. */
    int messageOf(final long index) {
        int low = 0;
        int high = count - 1;
        while (low < high) {
            final int mid = (low + high + 1) >>> 1;
            if (firstIndex[mid] <= index) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return low;
    }

    /**
     * Marks complete every message whose packets all lie below {@code ackedIndex}.
     *
     * @return the payload bytes of the messages just completed
     */
    long completeBelow(final long ackedIndex, final long nowNs) {
        long bytes = 0;
        while (completed < count && endIndex[completed] <= ackedIndex) {
            completionNs[completed] = nowNs;
            bytes += length[completed];
            completed++;
        }
        return bytes;
    }

    int count() {
        return count;
    }

    int completed() {
        return completed;
    }

    long firstIndex(final int message) {
        return firstIndex[message];
    }

    long endIndex(final int message) {
        return endIndex[message];
    }

    int length(final int message) {
        return length[message];
    }

    long postNs(final int message) {
        return postNs[message];
    }

    long completionNs(final int message) {
        return completionNs[message];
    }
}

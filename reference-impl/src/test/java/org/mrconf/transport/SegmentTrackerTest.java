package org.mrconf.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SegmentTrackerTest {
    @Test
    void shouldCompleteOnlyWhenEveryByteArrived() {
        final SegmentTracker tracker = new SegmentTracker(32);
        tracker.mark(0, 16);
        tracker.mark(0, 16);
        assertThat(tracker.isComplete()).isFalse();
        tracker.mark(8, 16);
        assertThat(tracker.isComplete()).isFalse();
        tracker.mark(24, 8);
        assertThat(tracker.isComplete()).isTrue();
    }

    @Test
    void shouldCompleteAZeroLengthMessageAtOnce() {
        assertThat(new SegmentTracker(0).isComplete()).isTrue();
    }

    @Test
    void shouldAgreeWithABitSetForRandomSegmentsInAnyOrder() {
        final Random random = new Random(3);
        for (int round = 0; round < 500; round++) {
            final int length = 1 + random.nextInt(5000);
            final List<int[]> segments = new ArrayList<>();
            for (int offset = 0; offset < length; ) {
                final int size = Math.min(length - offset, 1 + random.nextInt(700));
                segments.add(new int[] {offset, size});
                offset += size;
            }
            final int[] extra = segments.get(random.nextInt(segments.size()));
            segments.add(extra); // a duplicate
            Collections.shuffle(segments, random);
            final SegmentTracker tracker = new SegmentTracker(length);
            final BitSet seen = new BitSet(length);
            for (final int[] segment : segments) {
                tracker.mark(segment[0], segment[1]);
                seen.set(segment[0], segment[0] + segment[1]);
                assertThat(tracker.isComplete()).isEqualTo(seen.cardinality() == length);
            }
        }
    }
}

package org.mrconf.transport;

import java.util.EnumMap;
import java.util.Map;

/** The endpoint's counters: plain longs indexed by {@link Counter}, so counting never allocates. */
public final class Counters {
    private final long[] values = new long[Counter.values().length];

    void increment(final Counter counter) {
        values[counter.ordinal()]++;
    }

    void add(final Counter counter, final long delta) {
        values[counter.ordinal()] += delta;
    }

    /** The current value of one counter. */
    public long get(final Counter counter) {
        return values[counter.ordinal()];
    }

    /** A copy of all non-zero counters, for reports and test failure messages. */
    public Map<Counter, Long> snapshot() {
        final Map<Counter, Long> copy = new EnumMap<>(Counter.class);
        for (final Counter counter : Counter.values()) {
            if (values[counter.ordinal()] != 0) {
                copy.put(counter, values[counter.ordinal()]);
            }
        }
        return copy;
    }

    @Override
    public String toString() {
        return snapshot().toString();
    }
}

package org.mrconf.report;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.mrconf.verdict.Verdict;

/** How many cases or clauses got each verdict, every verdict present (zero included) in the enum's order. */
final class VerdictCounts {
    private final EnumMap<Verdict, Integer> counts = new EnumMap<>(Verdict.class);

    private VerdictCounts() {
        for (final Verdict v : Verdict.values()) {
            counts.put(v, 0);
        }
    }

    static <T> VerdictCounts of(final List<T> items, final Function<T, Verdict> verdict) {
        final VerdictCounts c = new VerdictCounts();
        for (final T item : items) {
            c.counts.merge(verdict.apply(item), 1, Integer::sum);
        }
        return c;
    }

    int get(final Verdict v) {
        return counts.get(v);
    }

    int total() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    Map<Verdict, Integer> asMap() {
        return Map.copyOf(counts);
    }
}

package org.mrconf.analyze;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the analyser found, per end and per check: how many packets the check judged and the violations, each with
 * the frame numbers that prove it. Memory is bounded: only the first few violations of a check keep their text.
 */
final class Findings {
    /** Violations kept in full per end and check; later ones are only counted. */
    static final int KEPT_VIOLATIONS = 8;

    private final Map<String, Map<Check, Tally>> byEnd = new TreeMap<>();

    void judged(final String end, final Check check) {
        tally(end, check).judged++;
    }

    void violation(final String end, final Check check, final String what, final long... frames) {
        final Tally tally = tally(end, check);
        tally.judged++;
        tally.violations++;
        if (tally.kept.size() < KEPT_VIOLATIONS) {
            tally.kept.add(new Violation(what, frames.clone()));
        }
    }

    Map<String, Map<Check, Tally>> byEnd() {
        return byEnd;
    }

    private Tally tally(final String end, final Check check) {
        return byEnd.computeIfAbsent(end, k -> new EnumMap<>(Check.class)).computeIfAbsent(check, k -> new Tally());
    }

    /** One check at one end. */
    static final class Tally {
        long judged;
        long violations;
        final List<Violation> kept = new ArrayList<>();
    }

    /** One violation and the frames (1-based, as Wireshark numbers them) that show it. */
    record Violation(String what, long[] frames) {}
}

package org.mrconf.selftest;

import java.util.SortedSet;
import java.util.TreeSet;
import org.mrconf.catalogue.Clause;
import org.mrconf.defect.Defect;

/**
 * What {@code analyze} made of a capture of the reference committing one defect (or none).
 *
 * @param defect         the defect, or null for the clean capture
 * @param judged         the defect's declared clauses that the analyser judges (empty for the clean capture)
 * @param failing        the clauses that FAIL for the defective end
 * @param failingClean   the clauses that FAIL for the conformant end: always a fault, of the analyser or the capture
 * @param notVisible     why the analyser cannot see the defect in a capture, or null when it must catch it
 * @param frames         frames in the capture
 * @param durationNs     wall-clock time to simulate, capture and analyse
 */
public record AnalyzeOutcome(
        Defect defect,
        SortedSet<String> judged,
        SortedSet<String> failing,
        SortedSet<String> failingClean,
        String notVisible,
        long frames,
        long durationNs) {
    public AnalyzeOutcome {
        judged = sorted(judged);
        failing = sorted(failing);
        failingClean = sorted(failingClean);
    }

    /** The judged clauses that did not FAIL for the defective end. */
    public SortedSet<String> missed() {
        final SortedSet<String> missed = sorted(judged);
        missed.removeAll(failing);
        return missed;
    }

    /** Whether the defect made every judged clause FAIL for the defective end. */
    public boolean caught() {
        return defect != null && !judged.isEmpty() && missed().isEmpty();
    }

    /**
     * Whether the outcome is what self-validation requires: the clean capture fails nothing; a visible defect is
     * caught; a defect listed as not visible is indeed not caught (else the list is stale); and the conformant end
     * is never blamed.
     */
    public boolean proven() {
        if (!failingClean.isEmpty()) {
            return false;
        }
        if (defect == null) {
            return failing.isEmpty();
        }
        return notVisible == null ? caught() : !caught();
    }

    /** The defect's flag name, or {@code (clean)}. */
    public String name() {
        return defect == null ? "(clean)" : defect.flagName();
    }

    private static SortedSet<String> sorted(final SortedSet<String> clauses) {
        final SortedSet<String> copy = new TreeSet<>(Clause::compareIds);
        copy.addAll(clauses);
        return copy;
    }
}

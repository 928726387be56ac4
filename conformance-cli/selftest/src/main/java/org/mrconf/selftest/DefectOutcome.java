package org.mrconf.selftest;

import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.mrconf.catalogue.Clause;
import org.mrconf.defect.Defect;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * What the suite did against one defect.
 *
 * @param defect   the defect, or null for the clean reference
 * @param results  every case result of the run
 * @param failing  the clauses some case FAILed, in id order
 * @param errors   results that are the harness's fault rather than a verdict on the device (see {@link #isError})
 * @param durationNs wall-clock time of the run
 */
public record DefectOutcome(
        Defect defect, List<CaseResult> results, SortedSet<String> failing, List<CaseResult> errors, long durationNs) {
    public DefectOutcome {
        results = List.copyOf(results);
        failing = new TreeSet<>(failing);
        errors = List.copyOf(errors);
    }

    static DefectOutcome of(final Defect defect, final List<CaseResult> results, final long durationNs) {
        final SortedSet<String> failing = new TreeSet<>(Clause::compareIds);
        for (final CaseResult result : results) {
            if (result.verdict() == Verdict.FAIL) {
                failing.addAll(result.clauses());
            }
        }
        return new DefectOutcome(
                defect,
                results,
                failing,
                results.stream().filter(DefectOutcome::isError).toList(),
                durationNs);
    }

    /**
     * Whether a result is the harness's fault (the runner's ERROR: the control channel or the link failed, the
     * testbed could not be set up, the suite itself threw). A defect must make cases FAIL, never this.
     */
    static boolean isError(final CaseResult result) {
        return result.verdict() == Verdict.ERROR;
    }

    /** The declared clauses that no case failed: the defect escaped them. */
    public SortedSet<String> missed() {
        final SortedSet<String> missed = new TreeSet<>(Clause::compareIds);
        if (defect != null) {
            for (final String clause : defect.clauses()) {
                if (!failing.contains(clause)) {
                    missed.add(clause);
                }
            }
        }
        return missed;
    }

    /** The clauses that failed although the defect does not declare them (collateral; informative). */
    public SortedSet<String> collateral() {
        final SortedSet<String> extra = new TreeSet<>(Clause::compareIds);
        final Set<String> declared = defect == null ? Set.of() : Set.copyOf(defect.clauses());
        for (final String clause : failing) {
            if (!declared.contains(clause)) {
                extra.add(clause);
            }
        }
        return extra;
    }

    /** Whether the outcome is what self-validation requires: every declared clause failed and nothing errored. */
    public boolean proven() {
        return errors.isEmpty() && missed().isEmpty() && (defect != null || failing.isEmpty());
    }

    /** The defect's flag name, or {@code (clean)}. */
    public String name() {
        return defect == null ? "(clean)" : defect.flagName();
    }
}

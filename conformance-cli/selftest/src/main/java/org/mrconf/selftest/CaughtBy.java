package org.mrconf.selftest;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.mrconf.catalogue.Clause;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * What caught a defect on one of its declared clauses: the Java cases and the test vectors (results with a
 * {@value #VECTOR_PREFIX} id) that FAILed on it. The self-validation report shows it, so a reader sees whether a
 * clause's proof rests on a case, a vector or both.
 *
 * @param cases   ids of the cases that failed on the clause, sorted
 * @param vectors ids of the vectors that failed on it (without the prefix), sorted
 */
public record CaughtBy(List<String> cases, List<String> vectors) {
    /** The id prefix the runner gives a vector's result. */
    public static final String VECTOR_PREFIX = "vector:";

    public CaughtBy {
        cases = List.copyOf(cases);
        vectors = List.copyOf(vectors);
    }

    /** Per declared clause of the outcome's defect, what failed on it (a clause nothing caught is absent). */
    public static SortedMap<String, CaughtBy> of(final DefectOutcome outcome) {
        final SortedMap<String, CaughtBy> caught = new TreeMap<>(Clause::compareIds);
        if (outcome.defect() == null) {
            return caught;
        }
        for (final String clause : outcome.defect().clauses()) {
            final TreeSet<String> cases = new TreeSet<>();
            final TreeSet<String> vectors = new TreeSet<>();
            for (final CaseResult result : outcome.results()) {
                if (result.verdict() == Verdict.FAIL && result.clauses().contains(clause)) {
                    if (result.caseId().startsWith(VECTOR_PREFIX)) {
                        vectors.add(result.caseId().substring(VECTOR_PREFIX.length()));
                    } else {
                        cases.add(result.caseId());
                    }
                }
            }
            if (!cases.isEmpty() || !vectors.isEmpty()) {
                caught.put(clause, new CaughtBy(List.copyOf(cases), List.copyOf(vectors)));
            }
        }
        return caught;
    }

    /** {@code case}, {@code vector} or {@code case+vector}: which kind of check caught it. */
    public String kinds() {
        if (cases.isEmpty()) {
            return "vector";
        }
        return vectors.isEmpty() ? "case" : "case+vector";
    }
}

package org.mrconf.bundle;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * The verdicts themselves, with the run's own exit rule: a submission is acceptable only when every applicable MUST
 * clause passed. A FAIL anywhere (a MUST clause, or an optional clause the device declares), an ERROR (the harness
 * lost the device, so the clause is unverified) or an INCONCLUSIVE MUST clause (the tester could not decide) is a
 * problem. WARN (a SHOULD not met) and NOT_APPLICABLE of an unclaimed profile are not; the coverage check handles a
 * claimed MUST clause set aside as NOT_APPLICABLE.
 */
final class OutcomeCheck {
    private OutcomeCheck() {}

    static List<Problem> check(final RunRecord record) {
        final List<Problem> problems = new ArrayList<>();
        for (final ClauseResult clause : record.clauses()) {
            final boolean must = "MUST".equals(clause.level());
            final boolean problem = clause.verdict() == Verdict.FAIL
                    || clause.verdict() == Verdict.ERROR
                    || (must && clause.verdict() == Verdict.INCONCLUSIVE);
            if (problem) {
                problems.add(new Problem(
                        "verdict",
                        clause.clauseId() + " (" + clause.level() + ", profile "
                                + clause.profile() + ") is " + clause.verdict()
                                + (clause.reason().isBlank() ? "" : ": " + firstLine(clause.reason()))));
            }
        }
        return problems;
    }

    private static String firstLine(final String text) {
        return text.lines().findFirst().orElse("");
    }
}

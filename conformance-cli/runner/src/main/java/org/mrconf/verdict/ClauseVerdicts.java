package org.mrconf.verdict;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Combines case verdicts into clause verdicts: the worst case verdict wins (FAIL > ERROR > INCONCLUSIVE > WARN >
 * PASS), a FAIL is never overwritten, the first case's reason for the winning verdict is kept, and a clause is
 * NOT_APPLICABLE only when every one of its cases is.
 *
 * <p>Each clause also lists the test purposes it did not exercise ({@link ClauseResult#notExercised()}): its cases
 * and vectors that were NOT_APPLICABLE for a reason other than the device's declarations (the link cannot carry them,
 * the device's configuration leaves nothing to test), INCONCLUSIVE or ERROR. A case that is NOT_APPLICABLE because
 * the device does not claim a profile or declare an optional clause it needs ({@link #byDeclarations}) is not a test
 * purpose of this device, so it is never listed. A PASS with such a list is {@link ClauseResult#partial() partial}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ClauseVerdicts {
    private ClauseVerdicts() {}

    /** The clause catalogue as this class needs it: title, level and profile of a clause id. */
    public interface ClauseInfo {
        String title(String clauseId);

        String level(String clauseId);

        String profile(String clauseId);

        /**
         * Read from {@code catalogue}; an id it does not hold reads "(not in the catalogue)", level and profile
         * "unknown".
         */
        static ClauseInfo of(final org.mrconf.catalogue.ClauseCatalogue catalogue) {
            return new ClauseInfo() {
                @Override
                public String title(final String clauseId) {
                    return catalogue
                            .find(clauseId)
                            .map(org.mrconf.catalogue.Clause::title)
                            .orElse("(not in the catalogue)");
                }

                @Override
                public String level(final String clauseId) {
                    return catalogue.find(clauseId).map(c -> c.level().name()).orElse("unknown");
                }

                @Override
                public String profile(final String clauseId) {
                    return catalogue
                            .find(clauseId)
                            .map(c -> c.profile().specName())
                            .orElse("unknown");
                }
            };
        }
    }

    /** One verdict per clause verified by {@code cases}, in the order {@code clauseOrder} gives (unknown ids last). */
    public static List<ClauseResult> combine(
            final List<CaseResult> cases, final ClauseInfo info, final List<String> clauseOrder) {
        final Map<String, Verdict> verdicts = new LinkedHashMap<>();
        final Map<String, String> reasons = new LinkedHashMap<>();
        final Map<String, List<String>> caseIds = new LinkedHashMap<>();
        final Map<String, List<ClauseResult.NotExercised>> notExercised = new LinkedHashMap<>();
        for (final CaseResult result : cases) {
            for (final String clause : result.clauses()) {
                caseIds.computeIfAbsent(clause, k -> new ArrayList<>()).add(result.caseId());
                final List<ClauseResult.NotExercised> missing =
                        notExercised.computeIfAbsent(clause, k -> new ArrayList<>());
                if (notExercised(result)) {
                    missing.add(new ClauseResult.NotExercised(result.caseId(), result.verdict(), result.message()));
                }
                final Verdict before = verdicts.get(clause);
                final Verdict after = before == null ? result.verdict() : Verdict.worst(before, result.verdict());
                if (before == null || after != before) {
                    verdicts.put(clause, after);
                    reasons.put(clause, after == Verdict.PASS ? "" : result.message());
                }
            }
        }
        final List<String> order = new ArrayList<>(clauseOrder);
        caseIds.keySet().stream()
                .filter(id -> !clauseOrder.contains(id))
                .sorted()
                .forEach(order::add);
        final List<ClauseResult> out = new ArrayList<>();
        for (final String id : order) {
            if (verdicts.containsKey(id)) {
                out.add(new ClauseResult(
                        id,
                        info.title(id),
                        info.level(id),
                        info.profile(id),
                        verdicts.get(id),
                        reasons.get(id),
                        caseIds.get(id),
                        notExercised.get(id)));
            }
        }
        return out;
    }

    /**
     * Whether a case result leaves a test purpose of its clauses unexercised: INCONCLUSIVE, ERROR, or
     * NOT_APPLICABLE for a reason other than the device's declarations.
     */
    public static boolean notExercised(final CaseResult result) {
        return switch (result.verdict()) {
            case INCONCLUSIVE, ERROR -> true;
            case NOT_APPLICABLE -> !byDeclarations(result.message());
            case PASS, WARN, FAIL -> false;
        };
    }

    /**
     * Whether a NOT_APPLICABLE reason comes from the device's declarations, so that the case is no test purpose of
     * this device: a profile it does not claim ({@code ... which the device does not claim}, {@code the device does
     * not claim the X profile}), an optional clause it does not declare ({@code ... does not declare},
     * {@code ... does not list optional clause}), or a check about a device that claims less
     * ({@link org.mrconf.cases.Applicability#CLAIMS_MORE}). A reason that starts with
     * {@link org.mrconf.cases.Applicability#LINK_CANNOT} never is: the link, not the device, kept the case from running.
     * Every other reason (the device's configuration, an optional agent operation it lacks) is not either: the clause
     * applies, and the case would exercise it on another configuration.
     */
    public static boolean byDeclarations(final String reason) {
        if (reason.startsWith(org.mrconf.cases.Applicability.LINK_CANNOT)) {
            return false;
        }
        return reason.startsWith(org.mrconf.cases.Applicability.CLAIMS_MORE)
                || reason.contains("does not claim")
                || reason.contains("does not declare")
                || reason.contains("does not list optional clause");
    }
}

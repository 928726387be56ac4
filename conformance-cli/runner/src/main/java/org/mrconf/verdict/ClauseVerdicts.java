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
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ClauseVerdicts {
    private ClauseVerdicts() {}

    /** The clause catalogue as this class needs it: title, level and profile of a clause id. */
    public interface ClauseInfo {
        String title(String clauseId);

        String level(String clauseId);

        String profile(String clauseId);
    }

    /** One verdict per clause verified by {@code cases}, in the order {@code clauseOrder} gives (unknown ids last). */
    public static List<ClauseResult> combine(
            final List<CaseResult> cases, final ClauseInfo info, final List<String> clauseOrder) {
        final Map<String, Verdict> verdicts = new LinkedHashMap<>();
        final Map<String, String> reasons = new LinkedHashMap<>();
        final Map<String, List<String>> caseIds = new LinkedHashMap<>();
        for (final CaseResult result : cases) {
            for (final String clause : result.clauses()) {
                caseIds.computeIfAbsent(clause, k -> new ArrayList<>()).add(result.caseId());
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
                        caseIds.get(id)));
            }
        }
        return out;
    }
}

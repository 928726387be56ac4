package org.mrconf.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.ClauseVerdicts;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * The report agrees with itself: each clause's verdict, and the test purposes it lists as not exercised, are what its
 * cases give under the rules of {@link ClauseVerdicts}, the clause's title, level and profile are the catalogue's, and the summary counts are
 * those of the clause and case verdicts listed. A report edited to hide a failure breaks one of these even when it
 * was re-signed.
 */
final class VerdictConsistencyCheck {
    private VerdictConsistencyCheck() {}

    static List<Problem> check(final RunRecord record, final JsonNode report, final ClauseCatalogue catalogue) {
        final List<Problem> problems = new ArrayList<>();
        checkCases(record, problems);
        checkClauses(record, catalogue, problems);
        checkPartial(record, report, problems);
        checkSummary(report.path("summary"), "cases", record.cases(), CaseResult::verdict, problems);
        checkSummary(report.path("summary"), "clauses", record.clauses(), ClauseResult::verdict, problems);
        return problems;
    }

    private static void checkCases(final RunRecord record, final List<Problem> problems) {
        final Set<String> seen = new HashSet<>();
        for (final CaseResult c : record.cases()) {
            if (!seen.add(c.caseId())) {
                problems.add(new Problem("clause", "case " + c.caseId() + " is listed twice in report.json"));
            }
        }
    }

    private static void checkClauses(
            final RunRecord record, final ClauseCatalogue catalogue, final List<Problem> problems) {
        final List<ClauseResult> expected = ClauseVerdicts.combine(
                record.cases(),
                info(catalogue),
                catalogue.clauses().stream().map(Clause::id).toList());
        final Map<String, ClauseResult> recorded = new LinkedHashMap<>();
        for (final ClauseResult clause : record.clauses()) {
            if (recorded.put(clause.clauseId(), clause) != null) {
                problems.add(new Problem("clause", clause.clauseId() + " is listed twice in report.json"));
            }
        }
        for (final ClauseResult want : expected) {
            final ClauseResult got = recorded.remove(want.clauseId());
            final String id = want.clauseId();
            if (got == null) {
                problems.add(new Problem(
                        "clause",
                        id + ": its cases " + want.caseIds() + " are in report.json but the"
                                + " clause is not (it would be " + want.verdict() + ")"));
                continue;
            }
            if (got.verdict() != want.verdict()) {
                problems.add(new Problem(
                        "clause",
                        id + " is recorded " + got.verdict() + " but its cases " + want.caseIds() + " give "
                                + want.verdict() + " under the worst-of rule"));
            }
            final List<String> gotMissing = got.notExercised().stream()
                    .map(ClauseResult.NotExercised::caseId)
                    .sorted()
                    .toList();
            final List<String> wantMissing = want.notExercised().stream()
                    .map(ClauseResult.NotExercised::caseId)
                    .sorted()
                    .toList();
            if (!gotMissing.equals(wantMissing)) {
                problems.add(new Problem(
                        "clause",
                        id + " lists " + gotMissing + " as not exercised but its cases in report.json leave "
                                + wantMissing + " not exercised (NOT_APPLICABLE for the link or the configuration,"
                                + " INCONCLUSIVE or ERROR)"));
            }
            if (!new TreeSet<>(got.caseIds()).equals(new TreeSet<>(want.caseIds()))) {
                problems.add(new Problem(
                        "clause",
                        id + " lists cases " + got.caseIds() + " but the cases that verify" + " it in report.json are "
                                + want.caseIds()));
            }
            if (catalogue.find(id).isEmpty()) {
                problems.add(new Problem(
                        "clause", id + " is not a clause of the MetaRoCE Open Draft " + catalogue.specVersion()));
                continue;
            }
            if (!got.level().equals(want.level()) || !got.profile().equals(want.profile())) {
                problems.add(new Problem(
                        "clause",
                        id + " is recorded as " + got.level() + " of profile " + got.profile()
                                + " but the catalogue has " + want.level() + " of profile " + want.profile()));
            }
            if (!got.title().equals(want.title())) {
                problems.add(new Problem(
                        "clause",
                        id + " is titled '" + got.title() + "' but the catalogue says '" + want.title() + "'"));
            }
        }
        for (final ClauseResult orphan : recorded.values()) {
            problems.add(new Problem(
                    "clause",
                    orphan.clauseId() + " is recorded " + orphan.verdict()
                            + " but no case in report.json verifies it"));
        }
    }

    /** Each clause's {@code partial} flag (format 1.1) is what its verdict and test purposes not exercised give. */
    private static void checkPartial(final RunRecord record, final JsonNode report, final List<Problem> problems) {
        final JsonNode nodes = report.path("clauses");
        for (int i = 0; i < nodes.size() && i < record.clauses().size(); i++) {
            final JsonNode flag = nodes.get(i).path("partial");
            final ClauseResult clause = record.clauses().get(i);
            if (flag.isBoolean() && flag.asBoolean() != clause.partial()) {
                problems.add(new Problem(
                        "clause",
                        clause.clauseId() + " says partial " + flag.asBoolean() + " but it is " + clause.verdict()
                                + " with " + clause.notExercised().size() + " test purpose(s) not exercised"));
            }
        }
    }

    private static <T> void checkSummary(
            final JsonNode summary,
            final String what,
            final List<T> items,
            final Function<T, Verdict> verdict,
            final List<Problem> problems) {
        final JsonNode counts = summary.path(what);
        if (!counts.isObject()) {
            problems.add(new Problem("summary", "report.json has no summary." + what));
            return;
        }
        final Map<Verdict, Integer> actual = new EnumMap<>(Verdict.class);
        items.forEach(item -> actual.merge(verdict.apply(item), 1, Integer::sum));
        for (final Verdict v : Verdict.values()) {
            final int listed = actual.getOrDefault(v, 0);
            final JsonNode claimed = counts.path(v.name());
            if (!claimed.canConvertToInt() || claimed.asInt() != listed) {
                problems.add(new Problem(
                        "summary",
                        "summary." + what + "." + v.name() + " says "
                                + (claimed.isMissingNode() ? "nothing" : claimed.asText()) + " but report.json lists "
                                + listed
                                + " " + what + " with that verdict"));
            }
        }
        final JsonNode total = counts.path("total");
        if (!total.canConvertToInt() || total.asInt() != items.size()) {
            problems.add(new Problem(
                    "summary",
                    "summary." + what + ".total says "
                            + (total.isMissingNode() ? "nothing" : total.asText()) + " but report.json lists "
                            + items.size()
                            + " " + what));
        }
    }

    static ClauseVerdicts.ClauseInfo info(final ClauseCatalogue catalogue) {
        return ClauseVerdicts.ClauseInfo.of(catalogue);
    }
}

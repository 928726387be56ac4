package org.mrconf.bundle;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * No cherry-picked selection: every MUST clause of every claimed profile that the suite has a case for was run and
 * not set aside as NOT_APPLICABLE, and every case of the suite that applies to the device's claims is in the report.
 * The suite's cases are the verifier's own ({@link SuiteCases}); the version check makes sure that is the suite the
 * run used.
 */
final class CoverageCheck {
    /** How the runner names a test vector's result: {@code vector:<id>}. */
    static final String VECTOR_PREFIX = "vector:";

    private CoverageCheck() {}

    static List<Problem> check(
            final RunRecord record, final ClauseCatalogue catalogue, final SuiteCases suite, final List<String> notes) {
        final List<Problem> problems = new ArrayList<>();
        final Set<Profile> claimed = new HashSet<>();
        for (final String name : record.dut().profiles()) {
            try {
                claimed.add(Profile.fromSpecName(name));
            } catch (IllegalArgumentException e) {
                problems.add(new Problem("product", "the device claims " + e.getMessage()));
            }
        }
        if (!claimed.contains(Profile.CORE)) {
            problems.add(new Problem(
                    "product",
                    "the device does not claim core; every device claims it (clause" + " 12.1.1, Table 12-1)"));
        }
        final Set<String> declared = new HashSet<>(record.dut().optionalClauses());
        final Map<String, ClauseResult> clauses = new HashMap<>();
        record.clauses().forEach(c -> clauses.put(c.clauseId(), c));
        final Set<String> ran = new HashSet<>();
        record.cases().forEach(c -> ran.add(c.caseId()));
        final Map<String, Set<String>> missingCases = new TreeMap<>();
        final String selection =
                record.selection().isEmpty() ? "" : " (the run selected " + new TreeMap<>(record.selection()) + ")";
        int withoutCase = 0;
        for (final Clause clause : catalogue.clauses()) {
            if (clause.level() != Level.MUST || !claimed.contains(clause.profile())) {
                continue;
            }
            final List<SuiteCases.SuiteCase> cases = suite.verifying(clause.id());
            if (cases.isEmpty()) {
                if (!clauses.containsKey(clause.id())) {
                    withoutCase++; // neither a case of the suite nor a vector the run replayed covers it
                }
                continue;
            }
            final String name = clause.id() + " (MUST, profile " + clause.profile() + ")";
            final ClauseResult result = clauses.get(clause.id());
            if (result == null) {
                problems.add(new Problem(
                        "coverage",
                        name + " was not run although the device claims " + clause.profile()
                                + "; the suite's case(s) for it: " + ids(cases) + selection));
                continue;
            }
            if (result.verdict() == Verdict.NOT_APPLICABLE
                    && result.reason().startsWith(org.mrconf.cases.Applicability.LINK_CANNOT)) {
                // The run's link could not carry the case: not a claim skipped, a clause this run could not show.
                notes.add(name + " was not exercised: " + result.reason()
                        + "; a run over a link that carries it covers it");
            } else if (result.verdict() == Verdict.NOT_APPLICABLE
                    && result.reason().startsWith(org.mrconf.cases.Applicability.CLAIMS_MORE)) {
                // About a device that claims less (clauses 5.6.7, 8.2.6): this device's claims make it not apply.
                notes.add(name + " was not exercised: " + result.reason());
            } else if (result.verdict() == Verdict.NOT_APPLICABLE) {
                problems.add(new Problem(
                        "coverage",
                        name + " was not run: NOT_APPLICABLE although the device claims " + clause.profile()
                                + (result.reason().isBlank() ? "" : " (" + result.reason() + ")")));
            }
            // The clause was run, but perhaps not by every case the suite has for it: a case taken out.
            for (final SuiteCases.SuiteCase c : cases) {
                if (!ran.contains(c.id()) && appliesTo(c, catalogue, claimed, declared)) {
                    missingCases
                            .computeIfAbsent(c.id(), k -> new TreeSet<>(Clause::compareIds))
                            .add(clause.id());
                }
            }
        }
        missingCases.forEach((id, ids) -> problems.add(new Problem(
                "coverage",
                "case " + id + " is missing from the report: it verifies MUST clause(s) " + String.join(", ", ids)
                        + " of the claimed profiles" + selection)));
        final Set<String> known = new HashSet<>();
        suite.all().forEach(c -> known.add(c.id()));
        for (final CaseResult c : record.cases()) {
            // Test vectors are data the run found on disk, not classes of the suite: the vector manifest lists them.
            if (!known.contains(c.caseId()) && !c.caseId().startsWith(VECTOR_PREFIX)) {
                problems.add(new Problem(
                        "coverage",
                        "case " + c.caseId() + " is in the report but is not a case of" + " the suite verifying it"));
            }
        }
        if (withoutCase > 0) {
            notes.add(withoutCase + " MUST clause(s) of the claimed profiles have no case or vector in this suite"
                    + " version yet; the bundle cannot show them and is not asked to");
        }
        return problems;
    }

    private static String ids(final List<SuiteCases.SuiteCase> cases) {
        return String.join(", ", cases.stream().map(SuiteCases.SuiteCase::id).toList());
    }

    /** Whether a case applies to the device: every clause it verifies is of a claimed profile, and no MAY clause
     * of it is undeclared (the runner's applicability rule). */
    private static boolean appliesTo(
            final SuiteCases.SuiteCase c,
            final ClauseCatalogue catalogue,
            final Set<Profile> claimed,
            final Set<String> declared) {
        for (final String id : c.clauses()) {
            final Clause clause = catalogue.find(id).orElse(null);
            if (clause == null
                    || !claimed.contains(clause.profile())
                    || (clause.level() == Level.MAY && !declared.contains(id))) {
                return false;
            }
        }
        return true;
    }
}

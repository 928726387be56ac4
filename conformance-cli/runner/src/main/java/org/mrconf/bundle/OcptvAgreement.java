package org.mrconf.bundle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * ocptv.jsonl says what report.json says, as OCP tooling reads it. The writer ({@code OcptvReport}) makes one test
 * step per clause, not per case, so the comparison is per clause: each clause of report.json is the name of exactly
 * one step, whose one diagnosis carries its verdict ({@code metaroce-<verdict>}, with {@code -partial} when a PASS
 * or WARN clause has a test purpose not exercised, {@code -not-exercised} when none ran; type PASS for PASS and WARN, FAIL
 * for FAIL, UNKNOWN otherwise) and whose end status is ERROR for ERROR, SKIP for NOT_APPLICABLE and COMPLETE
 * otherwise; no step names another clause; a measurement names a case of report.json; and the one testRunEnd has
 * the status and result the run's verdicts give. docs/submitting.md states the mapping for reviewers.
 */
final class OcptvAgreement {
    static final String FILE = BundleLayout.OCPTV_JSONL;

    private OcptvAgreement() {}

    static List<Problem> check(final Path ocptvJsonl, final RunRecord record) throws IOException {
        final List<Problem> problems = new ArrayList<>();
        final Map<String, Step> steps = new LinkedHashMap<>();
        final List<String> runEnds = new ArrayList<>();
        final Set<String> caseIds = new HashSet<>();
        record.cases().forEach(c -> caseIds.add(c.caseId()));
        try (BufferedReader in = new BufferedReader(new java.io.InputStreamReader(
                UserFiles.open(UserFiles.inside(UserFiles.folderOf(ocptvJsonl), ocptvJsonl), UserFiles.Kind.REPORT),
                StandardCharsets.UTF_8.newDecoder()))) {
            int number = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                final JsonNode artifact;
                try {
                    artifact = BundleDocuments.MAPPER.readTree(line);
                } catch (JsonProcessingException e) {
                    problems.add(problem("line " + number + " is not JSON, so it cannot be compared with report.json"));
                    continue;
                }
                final JsonNode end = artifact.path("testRunArtifact").path("testRunEnd");
                if (end.isObject()) {
                    runEnds.add(end.path("status").asText("nothing") + "/"
                            + end.path("result").asText("nothing"));
                }
                final JsonNode step = artifact.path("testStepArtifact");
                if (step.isObject()) {
                    final Step s = steps.computeIfAbsent(step.path("testStepId").asText(""), Step::new);
                    s.read(step, number, caseIds, problems);
                }
            }
        } catch (CharacterCodingException e) {
            // A re-signed file is a rejected submission, not a usage error: one problem, nothing to compare.
            problems.add(problem("is not UTF-8 text, so it cannot be compared with report.json"));
            return problems;
        }
        checkClauses(steps, record, problems);
        checkRunEnd(runEnds, record, problems);
        return problems;
    }

    /** The diagnosis verdict the writer gives a clause verdict: {@code metaroce-not-applicable} for NOT_APPLICABLE. */
    static String diagnosisVerdict(final Verdict verdict) {
        return "metaroce-" + verdict.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The diagnosis verdict the writer gives a clause: {@link #diagnosisVerdict(Verdict)}, then {@code -partial} for
     * a PASS or WARN with a test purpose not exercised, {@code -not-exercised} for a clause that applies but none of
     * whose cases ran.
     */
    static String diagnosisVerdict(final ClauseResult clause) {
        final String base = diagnosisVerdict(clause.verdict());
        if (clause.partial()) {
            return base + "-partial";
        }
        return clause.unexercised() ? base + "-not-exercised" : base;
    }

    /** The diagnosis type: a missed SHOULD is a warning log, not a non-conformance. */
    static String diagnosisType(final Verdict verdict) {
        return switch (verdict) {
            case PASS, WARN -> "PASS";
            case FAIL -> "FAIL";
            case INCONCLUSIVE, ERROR, NOT_APPLICABLE -> "UNKNOWN";
        };
    }

    static String stepStatus(final Verdict verdict) {
        return switch (verdict) {
            case ERROR -> "ERROR";
            case NOT_APPLICABLE -> "SKIP";
            default -> "COMPLETE";
        };
    }

    /**
     * The testRunEnd status/result: SKIP/NOT_APPLICABLE for a run cut short or never finished, ERROR/NOT_APPLICABLE
     * when a clause is ERROR, COMPLETE/FAIL when one is FAIL, SKIP/NOT_APPLICABLE when one is INCONCLUSIVE or every
     * one is NOT_APPLICABLE, else COMPLETE/PASS.
     */
    static String runEnd(final RunRecord record) {
        if (record.interrupted() || record.finishedAt().isEmpty()) {
            return "SKIP/NOT_APPLICABLE";
        }
        final List<Verdict> verdicts =
                record.clauses().stream().map(ClauseResult::verdict).toList();
        if (verdicts.contains(Verdict.ERROR)) {
            return "ERROR/NOT_APPLICABLE";
        }
        if (verdicts.contains(Verdict.FAIL)) {
            return "COMPLETE/FAIL";
        }
        if (verdicts.contains(Verdict.INCONCLUSIVE) || verdicts.stream().allMatch(v -> v == Verdict.NOT_APPLICABLE)) {
            return "SKIP/NOT_APPLICABLE";
        }
        return "COMPLETE/PASS";
    }

    private static void checkClauses(
            final Map<String, Step> steps, final RunRecord record, final List<Problem> problems) {
        final Map<String, List<Step>> byClause = new LinkedHashMap<>();
        for (final Step s : steps.values()) {
            byClause.computeIfAbsent(s.clauseId(), k -> new ArrayList<>()).add(s);
        }
        for (final ClauseResult clause : record.clauses()) {
            final List<Step> found = byClause.remove(clause.clauseId());
            final Verdict v = clause.verdict();
            if (found == null) {
                problems.add(problem("clause " + clause.clauseId() + " has no test step (report.json has it, " + v
                        + ", cases " + clause.caseIds() + ")"));
                continue;
            }
            if (found.size() > 1) {
                problems.add(
                        problem("clause " + clause.clauseId() + " is the name of " + found.size() + " test steps (ids "
                                + found.stream().map(Step::id).toList() + "); report.json lists it once"));
            }
            for (final Step s : found) {
                s.compare(clause, problems);
            }
        }
        for (final List<Step> extra : byClause.values()) {
            for (final Step s : extra) {
                problems.add(problem("test step " + s.id() + " ("
                        + (s.name == null ? "no testStepStart" : "'" + s.name + "'") + ", diagnosis "
                        + (s.diagnoses.isEmpty() ? "none" : String.join(", ", s.diagnoses))
                        + ") is not a clause of report.json"));
            }
        }
    }

    private static void checkRunEnd(final List<String> runEnds, final RunRecord record, final List<Problem> problems) {
        final String want = runEnd(record);
        if (runEnds.isEmpty()) {
            problems.add(problem("has no testRunEnd; report.json's verdicts give " + want));
            return;
        }
        if (runEnds.size() > 1) {
            problems.add(problem("has " + runEnds.size() + " testRunEnd artifacts; a run ends once"));
        }
        for (final String got : runEnds) {
            if (!got.equals(want)) {
                problems.add(
                        problem("testRunEnd status/result is " + got + " but report.json's verdicts give " + want));
            }
        }
    }

    private static Problem problem(final String what) {
        return new Problem(SiblingReportsCheck.CHECK, FILE + ": " + what);
    }

    /** What the file says about one test step. */
    private static final class Step {
        private final String id;
        private String name;
        private int starts;
        private final List<String> diagnoses = new ArrayList<>();
        private final List<String> ends = new ArrayList<>();

        Step(final String id) {
            this.id = id;
        }

        String id() {
            return id;
        }

        /** The writer names a step "<clause id> <title>". */
        String clauseId() {
            if (name == null) {
                return "\u0000step " + id; // never a clause id: reported as an extra step
            }
            final int space = name.indexOf(' ');
            return space < 0 ? name : name.substring(0, space);
        }

        void read(final JsonNode step, final int line, final Set<String> caseIds, final List<Problem> problems) {
            final JsonNode start = step.path("testStepStart");
            if (start.isObject()) {
                starts++;
                if (name == null) {
                    name = start.path("name").asText("");
                }
            }
            final JsonNode diagnosis = step.path("diagnosis");
            if (diagnosis.isObject()) {
                diagnoses.add(diagnosis.path("verdict").asText("nothing") + " ("
                        + diagnosis.path("type").asText("nothing") + ")");
            }
            final JsonNode end = step.path("testStepEnd");
            if (end.isObject()) {
                ends.add(end.path("status").asText("nothing"));
            }
            final JsonNode measurement = step.path("measurement");
            if (measurement.isObject()) {
                final String caseId = measurement.path("name").asText("");
                if (!caseIds.contains(caseId)) {
                    problems.add(problem("line " + line + ": a measurement of test step " + id + " names case '"
                            + caseId + "', which is not a case of report.json"));
                }
            }
        }

        void compare(final ClauseResult clause, final List<Problem> problems) {
            final String where = "clause " + clause.clauseId() + " (test step " + id + ")";
            final Verdict v = clause.verdict();
            if (starts > 1) {
                problems.add(problem(where + " starts " + starts + " times"));
            }
            final String want = diagnosisVerdict(clause) + " (" + diagnosisType(v) + ")";
            if (diagnoses.size() != 1) {
                problems.add(problem(where + " has " + diagnoses.size() + " diagnoses " + diagnoses
                        + " but report.json's " + v + " is one, " + want));
            } else if (!diagnoses.get(0).equals(want)) {
                problems.add(problem(where + " has diagnosis " + diagnoses.get(0) + " but report.json says " + v
                        + ", which is " + want));
            }
            final String status = stepStatus(v);
            if (ends.size() != 1) {
                problems.add(problem(where + " ends " + ends.size() + " times " + ends + " but report.json's " + v
                        + " is one testStepEnd, " + status));
            } else if (!ends.get(0).equals(status)) {
                problems.add(problem(
                        where + " ends " + ends.get(0) + " but report.json says " + v + ", which is " + status));
            }
        }
    }
}

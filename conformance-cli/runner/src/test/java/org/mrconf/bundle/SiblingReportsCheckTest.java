package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * junit.xml and ocptv.jsonl must say what report.json says: the writers' output of every kind of run agrees, and a
 * bundle whose junit.xml or ocptv.jsonl was edited (a failure turned into a pass, a case removed, a case added) and
 * signed again fails verify with a line naming the file and the case or clause.
 */
class SiblingReportsCheckTest {
    private static final KeyPair VENDOR = SigningKeys.generate();
    /** The clean run's first case, FAIL in the failing run. */
    private static final CaseResult FIRST = BundleRuns.clean().cases().get(0);
    /** The clean run's last passing case, the one removed. */
    private static final CaseResult LAST = BundleRuns.clean().cases().stream()
            .filter(c -> c.verdict() == Verdict.PASS)
            .reduce((a, b) -> b)
            .orElseThrow();

    private static final RunRecord FAILING = BundleRuns.withVerdict(FIRST.caseId(), Verdict.FAIL, "expected: 7");

    private static Path failingBundle;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeFailingBundle(@TempDir final Path shared) throws IOException {
        final Path run = BundleRuns.write(shared.resolve("run"), FAILING);
        failingBundle = BundleCreator.directoryOf(BundleVerifierTest.create(run, shared, "failing", VENDOR));
    }

    static Stream<RunRecord> runsOfEveryKind() {
        final String id = FIRST.caseId();
        final RunRecord clean = BundleRuns.clean();
        return Stream.of(
                clean,
                FAILING,
                BundleRuns.withVerdict(id, Verdict.ERROR, "the DUT stopped answering"),
                BundleRuns.withVerdict(id, Verdict.INCONCLUSIVE, "timestamps too coarse"),
                BundleRuns.withVerdict(id, Verdict.WARN, "a SHOULD not met"),
                BundleRuns.withVerdict(id, Verdict.NOT_APPLICABLE, "not claimed"),
                BundleRuns.interrupted(),
                unfinished(clean),
                BundleRuns.withCases(
                        clean,
                        clean.cases().stream()
                                .map(c -> withVerdict(c, Verdict.NOT_APPLICABLE))
                                .toList()));
    }

    @ParameterizedTest
    @MethodSource("runsOfEveryKind")
    void shouldFindTheWritersOwnSiblingReportsInAgreement(final RunRecord record) throws IOException {
        BundleRuns.write(dir.resolve(BundleLayout.RUN), record);

        assertThat(SiblingReportsCheck.check(dir, record)).isEmpty();
    }

    @Test
    void shouldAcceptTheFreshBundleOfAFailingRunOnSiblingsAlone() throws IOException {
        assertThat(lines(verify(failingBundle)))
                .isNotEmpty() // the FAIL itself is a verdict problem
                .allMatch(p -> p.startsWith("verdict: "));
    }

    @Test
    void shouldNameAJunitFailureTurnedIntoAPass() throws IOException {
        final String className = FIRST.caseId().substring(0, FIRST.caseId().lastIndexOf('.'));
        final String name = FIRST.caseId().substring(FIRST.caseId().lastIndexOf('.') + 1);
        final List<String> problems = edited(BundleLayout.JUNIT_XML, xml -> {
            // A careful forger: the testcase, the suite's failure count and the verdict property all say pass.
            final String passed = replaceOnce(
                    xml,
                    // The testcase keeps its system-out (verdict and clauses, issue 35); only the failure goes.
                    "(<testcase name=\"" + Pattern.quote(name) + "\" classname=\"" + Pattern.quote(className)
                            + "\"[^>]*>)\\s*<failure.*?</failure>",
                    "$1");
            return passed.replace("failures=\"1\"", "failures=\"0\"")
                    .replace(
                            "name=\"metaroce.case." + FIRST.caseId() + ".verdict\" value=\"FAIL\"",
                            "name=\"metaroce.case." + FIRST.caseId() + ".verdict\" value=\"PASS\"");
        });

        assertThat(problems)
                .contains(
                        "siblings: run/junit.xml: case " + FIRST.caseId()
                                + " is passed but report.json says FAIL, which is failure",
                        "siblings: run/junit.xml: testsuite failures says 0 but report.json gives 1",
                        "siblings: run/junit.xml: property metaroce.case." + FIRST.caseId()
                                + ".verdict says PASS but report.json says FAIL")
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameACaseRemovedFromJunit() throws IOException {
        final String className = LAST.caseId().substring(0, LAST.caseId().lastIndexOf('.'));
        final String name = LAST.caseId().substring(LAST.caseId().lastIndexOf('.') + 1);
        final int tests = FAILING.cases().size();
        final List<String> problems = edited(
                BundleLayout.JUNIT_XML,
                xml -> replaceOnce(
                                xml,
                                "  <testcase name=\"" + Pattern.quote(name) + "\" classname=\""
                                        + Pattern.quote(className) + "\"[^>]*>.*?</testcase>\n",
                                "")
                        .replace("tests=\"" + tests + "\"", "tests=\"" + (tests - 1) + "\""));

        assertThat(problems)
                .contains(
                        "siblings: run/junit.xml: case " + LAST.caseId() + " is missing (report.json has it, "
                                + LAST.verdict() + ", " + JunitAgreement.outcome(LAST.verdict())
                                + " in JUnit terms)",
                        "siblings: run/junit.xml: testsuite tests says " + (tests - 1) + " but report.json gives "
                                + tests)
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameACaseAddedToJunit() throws IOException {
        final List<String> problems = edited(
                BundleLayout.JUNIT_XML,
                xml -> xml.replace(
                        "</testsuite>",
                        "  <testcase name=\"forged\" classname=\"ExtraCase\" time=\"0.100\"/>\n</testsuite>"));

        assertThat(problems)
                .contains("siblings: run/junit.xml: case ExtraCase.forged (passed) is not a case of report.json")
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameACaseListedTwiceInJunit() throws IOException {
        final List<String> problems = edited(BundleLayout.JUNIT_XML, xml -> {
            final Matcher m = Pattern.compile("  <testcase [^>]*>.*?</testcase>\n", Pattern.DOTALL)
                    .matcher(xml);
            assertThat(m.find()).isTrue();
            return xml.substring(0, m.end()) + m.group() + xml.substring(m.end());
        });

        assertThat(problems)
                .anyMatch(p -> p.startsWith("siblings: run/junit.xml: case ")
                        && p.endsWith(" is listed 2" + " times; report.json lists it once"));
    }

    @Test
    void shouldRefuseAJunitFileWithADoctypeWithoutReadingWhatItPointsAt() throws IOException {
        final Path secret = Files.writeString(dir.resolve("secret.txt"), "do-not-read");
        Files.createDirectories(dir.resolve(BundleLayout.RUN));
        final Path junit = Files.writeString(
                dir.resolve(BundleLayout.JUNIT_XML),
                "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
                        + "<testsuite name=\"&x;\" tests=\"0\"/>\n");

        assertThat(JunitAgreement.check(junit, FAILING))
                .singleElement()
                .asString()
                .startsWith("siblings: run/junit.xml: cannot be read as XML (")
                .doesNotContain("do-not-read");
    }

    @Test
    void shouldNameAnOcptvFailureTurnedIntoAPass() throws IOException {
        final String clause = clauseOf(FIRST.caseId()).clauseId();
        final List<String> problems = edited(
                BundleLayout.OCPTV_JSONL,
                jsonl -> eachLine(jsonl, line -> {
                    final JsonNode diagnosis = line.path("testStepArtifact").path("diagnosis");
                    if (diagnosis.path("verdict").asText().equals("metaroce-fail")) {
                        ((ObjectNode) diagnosis).put("verdict", "metaroce-pass").put("type", "PASS");
                    }
                    final JsonNode end = line.path("testRunArtifact").path("testRunEnd");
                    if (end.isObject()) {
                        ((ObjectNode) end).put("result", "PASS");
                    }
                    return line;
                }));

        assertThat(problems)
                .anyMatch(p -> p.startsWith("siblings: run/ocptv.jsonl: clause " + clause + " (test step ")
                        && p.endsWith(") has diagnosis metaroce-pass (PASS) but report.json says FAIL, which is"
                                + " metaroce-fail (FAIL)"))
                .contains("siblings: run/ocptv.jsonl: testRunEnd status/result is COMPLETE/PASS but report.json's"
                        + " verdicts give COMPLETE/FAIL")
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameAClauseWhoseStepWasRemovedFromOcptv() throws IOException {
        // OCPTV has one step per clause, not per case: removing a case there means removing its clause's step.
        final ClauseResult clause = clauseOf(FIRST.caseId());
        final String stepId = String.valueOf(FAILING.clauses().indexOf(clause));
        final List<String> problems = edited(
                BundleLayout.OCPTV_JSONL,
                jsonl -> eachLine(
                        jsonl,
                        line -> line.path("testStepArtifact")
                                        .path("testStepId")
                                        .asText()
                                        .equals(stepId)
                                ? null
                                : line));

        assertThat(problems)
                .contains("siblings: run/ocptv.jsonl: clause " + clause.clauseId()
                        + " has no test step (report.json has it, FAIL, cases " + clause.caseIds() + ")")
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameAStepAddedToOcptv() throws IOException {
        final List<String> problems = edited(BundleLayout.OCPTV_JSONL, jsonl -> {
            final List<String> lines = new ArrayList<>(jsonl.lines().toList());
            final String at = Instant.parse("2026-11-30T10:00:01Z").toString();
            lines.add(
                    lines.size() - 1,
                    "{\"testStepArtifact\":{\"testStepId\":\"999\",\"testStepStart\":{\"name\":\"99.9.9 Forged\"}},"
                            + "\"sequenceNumber\":0,\"timestamp\":\"" + at + "\"}");
            lines.add(
                    lines.size() - 1,
                    "{\"testStepArtifact\":{\"testStepId\":\"999\",\"measurement\":{\"name\":\"ExtraCase.forged\","
                            + "\"value\":1}},\"sequenceNumber\":0,\"timestamp\":\"" + at + "\"}");
            lines.add(
                    lines.size() - 1,
                    "{\"testStepArtifact\":{\"testStepId\":\"999\",\"diagnosis\":{\"verdict\":\"metaroce-pass\","
                            + "\"type\":\"PASS\"}},\"sequenceNumber\":0,\"timestamp\":\"" + at + "\"}");
            return eachLine(String.join("\n", lines) + "\n", line -> line);
        });

        assertThat(problems)
                .contains("siblings: run/ocptv.jsonl: test step 999 ('99.9.9 Forged', diagnosis metaroce-pass (PASS))"
                        + " is not a clause of report.json")
                .anyMatch(p -> p.startsWith("siblings: run/ocptv.jsonl: line ")
                        && p.endsWith("a measurement of test step 999 names case 'ExtraCase.forged', which is not a"
                                + " case of report.json"))
                .noneMatch(SiblingReportsCheckTest::isIntegrityProblem);
    }

    @Test
    void shouldNameAnOcptvLineThatIsNotJsonAndCompareTheRest() throws IOException {
        final List<String> problems =
                edited(BundleLayout.OCPTV_JSONL, jsonl -> jsonl.replaceFirst("\n", "\n{not json\n"));

        assertThat(problems)
                .contains("siblings: run/ocptv.jsonl: line 2 is not JSON, so it cannot be compared with report.json")
                .noneMatch(p -> p.startsWith("siblings: run/ocptv.jsonl: clause "));
    }

    @Test
    void shouldNameAnOcptvFileThatIsNotUtf8AsAProblemNotACrash() throws IOException {
        final Path ocptv = dir.resolve(BundleLayout.OCPTV_JSONL);
        Files.createDirectories(ocptv.getParent());
        Files.write(ocptv, new byte[] {'{', (byte) 0xC3, '}', '\n'});

        assertThat(OcptvAgreement.check(ocptv, FAILING))
                .containsExactly(new Problem(
                        "siblings", "run/ocptv.jsonl: is not UTF-8 text, so it cannot be compared with report.json"));
    }

    // ---------------------------------------------------------------------------------------------------------

    /** The failing bundle with one file rewritten and the bundle signed again; the problems verify names. */
    private List<String> edited(final String file, final UnaryOperator<String> edit) throws IOException {
        final Path copy = BundleVerifierTest.copyOf(failingBundle, dir.resolve("copy"));
        final Path target = copy.resolve(file);
        final String before = Files.readString(target, StandardCharsets.UTF_8);
        final String after = edit.apply(before);
        assertThat(after).as("the edit changed " + file).isNotEqualTo(before);
        Files.writeString(target, after, StandardCharsets.UTF_8);
        BundleVerifierTest.resign(copy, VENDOR);
        return lines(verify(copy));
    }

    /** Rewrites each JSON line (null drops it) and numbers the lines again, as a careful forger would. */
    private static String eachLine(final String jsonl, final UnaryOperator<ObjectNode> edit) {
        final StringBuilder out = new StringBuilder();
        int sequence = 0;
        for (final String text : jsonl.lines().toList()) {
            try {
                final ObjectNode line = edit.apply((ObjectNode) BundleDocuments.MAPPER.readTree(text));
                if (line != null) {
                    line.put("sequenceNumber", sequence++);
                    out.append(BundleDocuments.MAPPER
                                    .writer()
                                    .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                                    .writeValueAsString(line))
                            .append('\n');
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        return out.toString();
    }

    private static String replaceOnce(final String text, final String regex, final String replacement) {
        final Matcher m = Pattern.compile(regex, Pattern.DOTALL).matcher(text);
        assertThat(m.find()).as("the test's edit finds " + regex).isTrue();
        return m.replaceFirst(replacement);
    }

    private static ClauseResult clauseOf(final String caseId) {
        return FAILING.clauses().stream()
                .filter(c -> c.caseIds().contains(caseId) && c.verdict() == Verdict.FAIL)
                .findFirst()
                .orElseThrow();
    }

    private static boolean isIntegrityProblem(final String problem) {
        return problem.startsWith("hash:") || problem.startsWith("signature:");
    }

    private static BundleVerifier.Verification verify(final Path bundle) throws IOException {
        return BundleVerifierTest.verifier().verify(bundle, Optional.of(VENDOR.getPublic()));
    }

    private static List<String> lines(final BundleVerifier.Verification result) {
        return result.problems().stream().map(Problem::toString).toList();
    }

    private static RunRecord unfinished(final RunRecord r) {
        return new RunRecord(
                r.suiteVersion(),
                r.suiteCommit(),
                r.specVersion(),
                r.commandLine(),
                r.dut(),
                r.startedAt(),
                Optional.empty(),
                false,
                r.selection(),
                r.cases(),
                r.clauses());
    }

    private static CaseResult withVerdict(final CaseResult c, final Verdict verdict) {
        return new CaseResult(
                c.caseId(),
                c.title(),
                c.clauses(),
                c.kind(),
                verdict,
                "set aside",
                c.startedAt(),
                c.durationNs(),
                c.evidence());
    }
}

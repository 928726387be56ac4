package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

class ReportCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private Path run;

    @BeforeEach
    void writeARun() throws Exception {
        run = dir.resolve("run");
        ReportWriters.writeAll(run, record());
    }

    @Test
    void shouldValidateTheFilesARunWrote() {
        assertThat(run("report", "validate", run.toString())).isZero();
        assertThat(out.toString()).contains("are valid");
    }

    @Test
    void shouldListEachProblemOfAnInvalidFileAndExitOne() throws Exception {
        final Path ocptv = run.resolve(ReportWriters.OCPTV_JSONL);
        Files.writeString(
                ocptv,
                Files.readString(ocptv)
                        .replace(
                                "\"status\":\"COMPLETE\",\"result\":\"FAIL\"",
                                "\"status\":\"COMPLETE\",\"result\":\"NOT_APPLICABLE\""));
        Files.writeString(run.resolve(ReportWriters.JUNIT_XML), "<testsuite/>\n");

        assertThat(run("report", "validate", run.toString())).isEqualTo(1);
        final List<String> lines = out.toString().lines().toList();
        assertThat(lines).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith(run + "/"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("ocptv.jsonl:").contains("COMPLETE/NOT_APPLICABLE"));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("junit.xml:1:"));
    }

    @Test
    void shouldNameAMissingFolderOrFileAndExitTwo() throws Exception {
        assertThat(run("report", "validate", dir.resolve("nope").toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains("nope")
                .contains("no such directory")
                .doesNotContain("\tat ");

        Files.delete(run.resolve(ReportWriters.JUNIT_XML));
        assertThat(run("report", "validate", run.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("junit.xml: no such file");
    }

    @Test
    void shouldShowTheSummaryAndTheFailureWithItsEvidence() {
        assertThat(run("report", "show", run.toString())).isZero();

        assertThat(out.toString())
                .contains("Clauses: 2 (FAIL 1, ERROR 0, INCONCLUSIVE 0, WARN 0, PASS 0, NOT_APPLICABLE 1)")
                .contains("FAIL         6.4.2 Out-of-order placement (MUST, core)")
                .contains("      expected: 1")
                .contains("      actual:   2")
                .contains("tester->dut")
                .contains("pcap: evidence/A.b.pcap")
                .contains("Not applicable (never counted as a pass):")
                .contains("Run:     complete")
                .doesNotContain("Not fully exercised");
        assertThat(out.toString())
                .as("terminal escapes from the device are defused")
                .doesNotContain("\u001b")
                .contains("\\u001B[2J");
    }

    @Test
    void shouldShowAClausePartlyExercisedAsPartialWithWhatWasNotExercised() throws Exception {
        final RunRecord r = record();
        final Instant t = r.startedAt();
        final String link = org.mrconf.cases.Applicability.LINK_CANNOT + "needs raw Ethernet";
        final List<CaseResult> cases = new java.util.ArrayList<>(r.cases());
        cases.add(new CaseResult(
                "E.f", "ipv6", List.of("4.1.6"), CaseKind.INVALID, Verdict.PASS, "", t, 0, Evidence.NONE));
        cases.add(new CaseResult(
                "G.h", "ipv4", List.of("4.1.6"), CaseKind.VALID, Verdict.NOT_APPLICABLE, link, t, 0, Evidence.NONE));
        final List<ClauseResult> clauses = new java.util.ArrayList<>(r.clauses());
        clauses.add(new ClauseResult(
                "4.1.6",
                "UDP checksum",
                "MUST",
                "core",
                Verdict.PASS,
                "",
                List.of("E.f", "G.h"),
                List.of(new ClauseResult.NotExercised("G.h", Verdict.NOT_APPLICABLE, link))));
        final Path partial = dir.resolve("partial");
        ReportWriters.writeAll(
                partial,
                new RunRecord(
                        r.suiteVersion(),
                        r.suiteCommit(),
                        r.specVersion(),
                        r.commandLine(),
                        r.dut(),
                        r.startedAt(),
                        r.finishedAt(),
                        r.interrupted(),
                        r.selection(),
                        cases,
                        clauses));

        assertThat(run("report", "show", partial.toString())).isZero();
        assertThat(out.toString())
                .contains("Not fully exercised (not a failure;")
                .contains("  4.1.6 PASS (partial) (MUST, core): not exercised: G.h (NOT_APPLICABLE: " + link + ")");
        assertThat(run("report", "validate", partial.toString())).isZero();
    }

    @Test
    void shouldRebuildTheSamePageFromReportJson() throws Exception {
        final String written = Files.readString(run.resolve(ReportWriters.REPORT_HTML));
        final Path rebuilt = dir.resolve("rebuilt.html");

        assertThat(run("report", "html", run.toString(), "--out", rebuilt.toString()))
                .isZero();
        assertThat(Files.readString(rebuilt, StandardCharsets.UTF_8)).isEqualTo(written);
    }

    @Test
    void shouldNameTheFieldOfABadReportJsonAndExitTwo() throws Exception {
        final Path json = run.resolve(ReportWriters.REPORT_JSON);
        Files.writeString(json, Files.readString(json).replace("\"interrupted\" : false", "\"interrupted\" : \"no\""));

        assertThat(run("report", "show", run.toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains("report.json: field /interrupted: expected true or false")
                .doesNotContain("\tat ");
        assertThat(run("report", "html", run.toString())).isEqualTo(2);
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out), new PrintWriter(err))
                .execute(args);
    }

    private static RunRecord record() {
        final Instant t = Instant.parse("2026-11-30T10:00:00Z");
        final List<CaseResult> cases = List.of(
                new CaseResult(
                        "A.b",
                        "a title",
                        List.of("6.4.2"),
                        CaseKind.VALID,
                        Verdict.FAIL,
                        "psn mismatch \u001b[2J",
                        t,
                        1_000_000,
                        new Evidence(
                                "1",
                                "2",
                                List.of(new Evidence.PacketRecord(10, "tester->dut", "WRITE psn=1", "0102")),
                                Optional.of("evidence/A.b.pcap"))),
                new CaseResult(
                        "C.d",
                        "read",
                        List.of("5.2.6"),
                        CaseKind.VALID,
                        Verdict.NOT_APPLICABLE,
                        "no read profile",
                        t,
                        0,
                        Evidence.NONE));
        final List<ClauseResult> clauses = List.of(
                new ClauseResult(
                        "5.2.6", "READ", "MUST", "read", Verdict.NOT_APPLICABLE, "no read profile", List.of("C.d")),
                new ClauseResult(
                        "6.4.2",
                        "Out-of-order placement",
                        "MUST",
                        "core",
                        Verdict.FAIL,
                        "psn mismatch",
                        List.of("A.b")));
        return new RunRecord(
                "0.1.0",
                "abc",
                "0.1",
                "./metaroce run",
                new RunRecord.DutDescription(
                        "reference", "v", "m", "f", "d", List.of("core"), List.of(), List.of(), Map.of(), "embedded"),
                t,
                Optional.of(t.plusSeconds(1)),
                false,
                Map.of(),
                cases,
                clauses);
    }
}

package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.Verdict;

/** A whole conformance run through the runner library alone: no Picocli, no CLI class. */
class ConformanceRunTest {
    private static final Path VECTORS = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");

    @Test
    @Timeout(120)
    void shouldRunCasesAndVectorsOnTwoLanesWriteTheReportsAndExitZero(@TempDir final Path runDir) throws Exception {
        final List<String> heard = new ArrayList<>();
        final ConformanceRun.Outcome outcome;
        try (EmbeddedReferenceDut cases = EmbeddedReferenceDut.start();
                EmbeddedReferenceDut vectors = EmbeddedReferenceDut.start()) {
            outcome = ConformanceRun.of(cases.device(), journal(cases), runDir)
                    .options(RunOptions.defaults()
                            .withSelection(new Selection(List.of("7.4.2"), Set.of(), Set.of(), Set.of(), List.of()))
                            .withVectorRoot(VECTORS))
                    .vectorLane(Optional.of(vectors.device()))
                    .handleShutdown(false)
                    .run(result -> heard.add(result.caseId()));
        }

        assertThat(outcome.results())
                .isNotEmpty()
                .extracting(CaseResult::verdict)
                .containsOnly(Verdict.PASS);
        assertThat(heard)
                .containsExactlyInAnyOrderElementsOf(
                        outcome.results().stream().map(CaseResult::caseId).toList());
        assertThat(heard).anyMatch(id -> id.startsWith("vector:7.4.2/")).anyMatch(id -> !id.startsWith("vector:"));
        assertThat(outcome.record().cases()).hasSameSizeAs(outcome.results());
        assertThat(outcome.exitCode()).isEqualTo(ConformanceRun.EXIT_PASSED);
        assertThat(runDir.resolve("report.json")).isRegularFile();
        assertThat(runDir.resolve("junit.xml")).isRegularFile();
        assertThat(runDir.resolve("ocptv.jsonl")).isRegularFile();
        assertThat(runDir.resolve("report.html")).isRegularFile();
    }

    @Test
    @Timeout(60)
    void shouldReportAnEmptySelectionAndWriteNothing(@TempDir final Path runDir) throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final ConformanceRun run = ConformanceRun.of(embedded.device(), journal(embedded), runDir)
                    .options(RunOptions.defaults()
                            .withSelection(
                                    new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of("NoSuchCase.*"))))
                    .handleShutdown(false);
            assertThatThrownBy(() -> run.run(result -> {})).isInstanceOf(NoCasesSelected.class);
        }
        assertThat(runDir.resolve("report.json")).doesNotExist();
    }

    @Test
    void shouldExitOneOnAFailedOrUndecidedMustClauseAndThreeOnAnError() {
        assertThat(ConformanceRun.exitCode(List.of(clause("MUST", Verdict.PASS), clause("SHOULD", Verdict.WARN))))
                .isZero();
        assertThat(ConformanceRun.exitCode(List.of(clause("SHOULD", Verdict.INCONCLUSIVE))))
                .isZero();
        assertThat(ConformanceRun.exitCode(List.of(clause("MUST", Verdict.INCONCLUSIVE))))
                .isEqualTo(ConformanceRun.EXIT_FAILED);
        assertThat(ConformanceRun.exitCode(List.of(clause("SHOULD", Verdict.FAIL))))
                .isEqualTo(ConformanceRun.EXIT_FAILED);
        assertThat(ConformanceRun.exitCode(List.of(clause("MUST", Verdict.FAIL), clause("MAY", Verdict.ERROR))))
                .isEqualTo(ConformanceRun.EXIT_HARNESS);
    }

    private static RunJournal journal(final EmbeddedReferenceDut embedded) throws Exception {
        return new RunJournal(
                BuildInfo.current(),
                new CatalogueLoader().loadBundled(),
                "ConformanceRunTest",
                RunJournal.describe("embedded reference", embedded.device().profile(), Optional.empty()),
                java.util.Map.of());
    }

    private static ClauseResult clause(final String level, final Verdict verdict) {
        return new ClauseResult("1.1.1", "a clause", level, "core", verdict, "", List.of());
    }
}

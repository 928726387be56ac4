package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/** Coverage on its own: claims decide which MUST clauses must have run. */
class CoverageCheckTest {
    @Test
    void shouldFindNothingInACleanRun() {
        assertThat(check(BundleRuns.clean())).isEmpty();
    }

    @Test
    void shouldRequireTheCoreClaim() {
        final RunRecord clean = BundleRuns.clean();
        final RunRecord.DutDescription d = clean.dut();
        final RunRecord noCore = withDut(
                clean,
                new RunRecord.DutDescription(
                        d.name(),
                        d.vendor(),
                        d.model(),
                        d.firmware(),
                        d.driver(),
                        List.of("read"),
                        d.optionalClauses(),
                        d.defects(),
                        d.parameters(),
                        d.link()));

        assertThat(check(noCore))
                .contains(
                        "product: the device does not claim core; every device claims it (clause 12.1.1, Table 12-1)");
    }

    @Test
    void shouldNameAnUnknownProfile() {
        final RunRecord clean = BundleRuns.clean();
        final RunRecord.DutDescription d = clean.dut();
        final List<String> claims = new ArrayList<>(d.profiles());
        claims.add("teleport");
        final RunRecord odd = withDut(
                clean,
                new RunRecord.DutDescription(
                        d.name(),
                        d.vendor(),
                        d.model(),
                        d.firmware(),
                        d.driver(),
                        claims,
                        d.optionalClauses(),
                        d.defects(),
                        d.parameters(),
                        d.link()));

        assertThat(check(odd)).anyMatch(p -> p.startsWith("product: the device claims unknown profile 'teleport'"));
    }

    @Test
    void shouldTakeTestVectorsAsDataButNameAnUnknownCase() {
        final RunRecord clean = BundleRuns.clean();
        final List<CaseResult> cases = new ArrayList<>(clean.cases());
        final CaseResult any = cases.get(0);
        for (final String id : List.of("vector:7.1.1/write-arrival-order-3120", "MadeUpCase.alwaysPasses")) {
            cases.add(new CaseResult(
                    id, id, List.of("7.1.1"), any.kind(), Verdict.PASS, "", any.startedAt(), 1, any.evidence()));
        }

        assertThat(check(BundleRuns.withCases(clean, cases)))
                .containsExactly("coverage: case MadeUpCase.alwaysPasses is in the report but is not a case of the"
                        + " suite verifying it");
    }

    private static List<String> check(final RunRecord record) {
        return CoverageCheck.check(record, BundleRuns.CATALOGUE, BundleRuns.CASES, new ArrayList<>()).stream()
                .map(Problem::toString)
                .toList();
    }

    private static RunRecord withDut(final RunRecord r, final RunRecord.DutDescription dut) {
        return new RunRecord(
                r.suiteVersion(),
                r.suiteCommit(),
                r.specVersion(),
                r.commandLine(),
                dut,
                r.startedAt(),
                r.finishedAt(),
                r.interrupted(),
                r.selection(),
                r.cases(),
                r.clauses());
    }
}

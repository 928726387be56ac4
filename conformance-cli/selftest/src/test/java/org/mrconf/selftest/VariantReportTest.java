package org.mrconf.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.variant.Variant;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.Verdict;

/** {@link VariantReport}: a blocked verdict's message is in the report, so one seen once can be diagnosed. */
class VariantReportTest {

    @Test
    void quotesWhatEachBlockedVerdictSaid() {
        final CaseResult failedOnce = result("GapResendCase.theHole", Verdict.FAIL, "6.3.1: it did not\n  come");
        final CaseResult passedAfter = result("GapResendCase.theHole", Verdict.PASS, "");
        final CaseResult blocking = result("TimerCase.backsOff", Verdict.ERROR, "x".repeat(700));
        final var outcome = new VariantSelfTest.VariantOutcome(
                Variant.SLOWER_TIMERS, List.of(passedAfter, blocking), List.of(failedOnce, blocking), 1_000_000_000L);

        final String md = VariantReport.markdown(List.of(outcome), VariantSelfTest.Scope.ALL_CASES, "selftest", "m");

        assertThat(md).contains("## What the blocked verdicts said");
        assertThat(md).contains("- `slower-timers`, GapResendCase.theHole FAIL (then decided): 6.3.1: it did not come");
        assertThat(md).contains("- `slower-timers`, TimerCase.backsOff ERROR (blocking): " + "x".repeat(600) + " ...");
        assertThat(md).doesNotContain("x".repeat(601));
    }

    @Test
    void hasNoSuchSectionWhenNothingBlocked() {
        final var outcome = new VariantSelfTest.VariantOutcome(
                Variant.SLOWER_TIMERS, List.of(result("A.b", Verdict.PASS, "")), List.of(), 1L);
        assertThat(VariantReport.markdown(List.of(outcome), VariantSelfTest.Scope.ALL_CASES, "selftest", "m"))
                .doesNotContain("What the blocked verdicts said");
    }

    private static CaseResult result(final String id, final Verdict verdict, final String message) {
        return new CaseResult(
                id, id, List.of("6.3.1"), CaseKind.VALID, verdict, message, Instant.EPOCH, 0, Evidence.NONE);
    }
}

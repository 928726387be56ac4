package org.mrconf.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.mrconf.defect.Defect;

/**
 * The build's self-validation stops a defect's run once each clause it declares has FAILed ({@link
 * SelfTest.Scope#UNTIL_CAUGHT}). Proven on a clause with many cases: the defect is still caught, by fewer cases, and
 * the cases the stop skipped leave no trace (no ERROR of their own).
 */
class UntilCaughtScopeTest {
    /** 9.1.1 has more cases than any clause but one; the defect breaks one of them. */
    private static final Defect DEFECT = Defect.RECEIVER_NOT_READY_WRONG_CODE;

    @Test
    void shouldCatchTheDefectWithFewerCasesAndNoTraceOfTheStop() throws Exception {
        final DefectOutcome whole = outcome(SelfTest.Scope.DECLARED_CLAUSES);
        final DefectOutcome stopped = outcome(SelfTest.Scope.UNTIL_CAUGHT);

        assertThat(whole.proven())
                .as("caught by every case of %s", DEFECT.clauses())
                .isTrue();
        assertThat(stopped.proven()).as("caught before the stop").isTrue();
        assertThat(stopped.results()).hasSizeLessThan(whole.results().size());
        assertThat(stopped.results()).noneMatch(r -> r.message().contains(SelfTest.CAUGHT));
    }

    private static DefectOutcome outcome(final SelfTest.Scope scope) throws Exception {
        return new SelfTest(scope, 1, java.util.Optional.empty())
                .withoutAnalyze()
                .runDefects(List.of(DEFECT))
                .get(0);
    }
}

package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.mrconf.cases.Inconclusive;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.dut.DutErrorCode;
import org.mrconf.verdict.Verdict;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class OutcomesTest {
    /** MUST clauses of core. */
    private static final List<String> MUST = List.of("6.4.1", "6.4.2");
    /** A SHOULD clause of core that the reference declares. */
    private static final String DECLARED_SHOULD = "6.4.3";

    private final DeviceDeclaration reference = load();

    @Test
    void shouldPassASuccess() {
        assertThat(judge(TestExecutionResult.successful(), MUST).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void shouldFailAnAssertionAndKeepEveryLineOfItsMessage() {
        final Outcomes.Judged judged = judge(
                TestExecutionResult.failed(
                        new AssertionFailedError("[6.4.2: same path]\nexpected: 1\n but was: 0", 1, 0)),
                MUST);

        assertThat(judged.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(judged.message()).contains("[6.4.2: same path]", "expected: 1", "but was: 0");
    }

    @Test
    void shouldWarnWhenEveryClauseIsAnUndeclaredShould() {
        final DeviceDeclaration declaresNothing = declaringNoOptionalClause(reference);
        final TestExecutionResult missed = TestExecutionResult.failed(new AssertionError("missed"));

        assertThat(Outcomes.judge(missed, List.of(DECLARED_SHOULD), declaresNothing)
                        .verdict())
                .isEqualTo(Verdict.WARN);
        assertThat(Outcomes.judge(missed, List.of(DECLARED_SHOULD, "6.4.1"), declaresNothing)
                        .verdict())
                .as("a MUST clause among them")
                .isEqualTo(Verdict.FAIL);
        assertThat(judge(missed, List.of(DECLARED_SHOULD)).verdict())
                .as("a SHOULD clause the device declares binds it")
                .isEqualTo(Verdict.FAIL);
    }

    @Test
    void shouldBeNotApplicableWhenACheckFindsAtRunTimeThatItDoesNotApply() {
        final Outcomes.Judged judged = judge(
                TestExecutionResult.aborted(org.mrconf.cases.NotApplicable.because("needs the read profile")), MUST);

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(judged.message()).isEqualTo("needs the read profile");
    }

    @Test
    void shouldBeInconclusiveWhenTheTesterCannotDecide() {
        assertThat(judge(TestExecutionResult.aborted(Inconclusive.because("a timer fired")), MUST)
                        .verdict())
                .isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(judge(TestExecutionResult.aborted(new TestAbortedException("assumption")), MUST)
                        .verdict())
                .isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void shouldBeAnErrorWhenTheControlChannelTheLinkOrTheHarnessFails() {
        final DutControlException control =
                new DutControlException(DutErrorCode.TRANSPORT, "reset", "connection reset", null);
        assertThat(judge(TestExecutionResult.failed(control), MUST).verdict()).isEqualTo(Verdict.ERROR);
        assertThat(judge(TestExecutionResult.failed(new RuntimeException("set-up", control)), MUST)
                        .verdict())
                .as("wrapped, as a parameter resolver wraps it")
                .isEqualTo(Verdict.ERROR);
        assertThat(judge(
                                TestExecutionResult.failed(
                                        new UncheckedIOException(new IOException("port unreachable"))),
                                MUST)
                        .verdict())
                .isEqualTo(Verdict.ERROR);
        assertThat(judge(TestExecutionResult.failed(new NullPointerException("bug")), MUST)
                        .message())
                .startsWith("harness fault: NullPointerException");
    }

    private Outcomes.Judged judge(final TestExecutionResult result, final List<String> clauses) {
        return Outcomes.judge(result, clauses, reference);
    }

    private static DeviceDeclaration declaringNoOptionalClause(final DeviceDeclaration profile) {
        final DeviceDeclaration.Conformance c = profile.conformance();
        return new DeviceDeclaration(
                profile.identity(),
                new DeviceDeclaration.Conformance(c.profiles(), List.of(), c.limits(), c.reorderTolerance()),
                profile.parameters(),
                profile.control(),
                profile.link());
    }

    private static DeviceDeclaration load() {
        try {
            return new DeclarationLoader().loadBundled(DeclarationLoader.REFERENCE_UDP);
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

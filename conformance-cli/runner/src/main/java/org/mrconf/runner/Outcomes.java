package org.mrconf.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.mrconf.cases.Applicability;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.Level;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.dut.DutControlException;
import org.mrconf.verdict.Verdict;
import org.opentest4j.TestAbortedException;

/**
 * Turns a JUnit outcome into a verdict, so that only the device's own misbehaviour is ever a FAIL:
 *
 * <ul>
 *   <li>success: PASS;
 *   <li>an assertion failure: FAIL, or WARN when every clause the case verifies is a SHOULD clause the device does not
 *       declare (a declared SHOULD or MAY clause binds the device like a MUST);
 *   <li>{@link org.mrconf.cases.Inconclusive} or any other aborted assumption: INCONCLUSIVE, except
 *       {@link org.mrconf.cases.NotApplicable} (a check found at run time not to apply): NOT_APPLICABLE;
 *   <li>a control-channel failure ({@link DutControlException}), an I/O failure of the link, or any other exception
 *       (a fault of the harness or the case): ERROR.
 * </ul>
 */
final class Outcomes {
    private Outcomes() {}

    /** A verdict with its reason, the whole message (every line). */
    record Judged(Verdict verdict, String message) {}

    static Judged judge(
            final TestExecutionResult outcome, final List<String> clauses, final DeviceDeclaration profile) {
        final Optional<Throwable> thrown = outcome.getThrowable();
        return switch (outcome.getStatus()) {
            case SUCCESSFUL -> new Judged(Verdict.PASS, "");
            case ABORTED ->
                thrown.orElse(null) instanceof org.mrconf.cases.NotApplicable
                        ? new Judged(Verdict.NOT_APPLICABLE, message(thrown.get()))
                        : new Judged(
                                Verdict.INCONCLUSIVE,
                                thrown.map(Outcomes::message).orElse("aborted"));
            case FAILED -> judgeFailure(thrown.orElse(new AssertionError("failed without a reason")), clauses, profile);
        };
    }

    static Judged judgeFailure(final Throwable thrown, final List<String> clauses, final DeviceDeclaration profile) {
        final Optional<Throwable> harness = harnessCause(thrown);
        if (harness.isPresent()) {
            final Throwable cause = harness.get();
            final String what = cause instanceof DutControlException
                    ? "the control channel failed: "
                    : cause instanceof IOException || cause instanceof UncheckedIOException
                            ? "the wire link failed: "
                            : "harness fault: ";
            return new Judged(Verdict.ERROR, what + message(thrown));
        }
        if (thrown instanceof TestAbortedException) {
            return new Judged(Verdict.INCONCLUSIVE, message(thrown));
        }
        if (thrown instanceof AssertionError) {
            return new Judged(onlyUndeclaredShould(clauses, profile) ? Verdict.WARN : Verdict.FAIL, message(thrown));
        }
        return new Judged(Verdict.ERROR, "harness fault: " + message(thrown));
    }

    /** The first cause in the chain that is the harness's problem, not the device's misbehaviour. */
    private static Optional<Throwable> harnessCause(final Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DutControlException || t instanceof IOException || t instanceof UncheckedIOException) {
                return Optional.of(t);
            }
            if (t instanceof AssertionError || t instanceof TestAbortedException) {
                return Optional.empty();
            }
        }
        return thrown instanceof AssertionError || thrown instanceof TestAbortedException
                ? Optional.empty()
                : Optional.of(thrown);
    }

    private static boolean onlyUndeclaredShould(final List<String> clauses, final DeviceDeclaration profile) {
        if (clauses.isEmpty()) {
            return false;
        }
        for (final String id : clauses) {
            final Optional<Clause> clause = Applicability.catalogue().find(id);
            if (clause.isEmpty() || clause.get().level() != Level.SHOULD || profile.implementsOptional(id)) {
                return false;
            }
        }
        return true;
    }

    /** The whole message, every line, with the exception type when it is not an assertion. */
    static String message(final Throwable thrown) {
        final String text = thrown.getMessage() == null ? "" : thrown.getMessage();
        if (thrown instanceof AssertionError || thrown instanceof TestAbortedException) {
            return text.isBlank() ? thrown.getClass().getSimpleName() : text;
        }
        final StringBuilder out = new StringBuilder(thrown.getClass().getSimpleName())
                .append(": ")
                .append(text);
        for (Throwable c = thrown.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !text.contains(c.getMessage())) {
                out.append("\ncaused by ")
                        .append(c.getClass().getSimpleName())
                        .append(": ")
                        .append(c.getMessage());
            }
        }
        return out.toString();
    }
}

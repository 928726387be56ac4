package org.mrconf.selftest;

import java.util.List;
import java.util.stream.Collectors;
import org.mrconf.variant.Variant;
import org.mrconf.verdict.CaseResult;

/** The markdown table of a variant self-test: per variant, what its cases gave and what kept it from exit 0. */
public final class VariantReport {
    private VariantReport() {}

    /**
     * The report of {@code outcomes}, made by {@code command} on {@code machine}.
     *
     * @param scope which cases ran against each variant
     */
    public static String markdown(
            final List<VariantSelfTest.VariantOutcome> outcomes,
            final VariantSelfTest.Scope scope,
            final String command,
            final String machine) {
        return markdown(outcomes, scope, command, machine, List.of());
    }

    /**
     * As {@link #markdown(List, VariantSelfTest.Scope, String, String)}, with {@code notes} after the table (e.g. the
     * smallest declaration set each blocked sample shrank to).
     */
    public static String markdown(
            final List<VariantSelfTest.VariantOutcome> outcomes,
            final VariantSelfTest.Scope scope,
            final String command,
            final String machine,
            final List<String> notes) {
        final StringBuilder md = new StringBuilder();
        final long passed =
                outcomes.stream().filter(VariantSelfTest.VariantOutcome::passed).count();
        md.append("# Legal variants of the reference\n\n")
                .append("Each variant takes a choice the Open Draft leaves open (Table 12-3) and the standard")
                .append(" configuration does not, and is judged by what its `hello` declares. It must get no FAIL, no")
                .append(" ERROR and no INCONCLUSIVE on a MUST clause: anything in the Blocking column is a false")
                .append(" verdict of the suite against a conforming device.\n\n")
                .append("- Made by: `")
                .append(command)
                .append("`\n- Machine: ")
                .append(machine)
                .append("\n- Cases: ")
                .append(
                        switch (scope) {
                            case BEARS_ON -> "those of every clause and section each variant bears on";
                            case OWN_CLAUSE -> "those of the clause that leaves each variant's choice open";
                            case ALL_CASES -> "every case and vector of the suite, whatever each variant bears on";
                        })
                .append("\n- Result: ")
                .append(passed)
                .append(" of ")
                .append(outcomes.size())
                .append(" variants and sampled declaration sets pass\n\n")
                .append(
                        "| Variant | Freedom | Clause | Verdicts | Blocking | Blocked once, then decided | Time (s) |\n")
                .append("| --- | --- | --- | --- | --- | --- | ---: |\n");
        for (final VariantSelfTest.VariantOutcome outcome : outcomes) {
            final boolean named = outcome.variant() instanceof Variant;
            md.append("| `")
                    .append(outcome.variant().label())
                    .append("` | ")
                    .append(named ? ((Variant) outcome.variant()).freedom() : "F-30")
                    .append(" | ")
                    .append(named ? ((Variant) outcome.variant()).clause() : "12.1.3, 12.1.6")
                    .append(" | ")
                    .append(outcome.tally())
                    .append(" | ")
                    .append(cell(outcome.blocking()))
                    .append(" | ")
                    .append(cell(outcome.decidedOnRerun()))
                    .append(" | ")
                    .append(String.format(java.util.Locale.ROOT, "%.1f", outcome.durationNs() / 1e9))
                    .append(" |\n");
        }
        blockedMessages(md, outcomes);
        if (!notes.isEmpty()) {
            md.append('\n');
            notes.forEach(note -> md.append("- ").append(note).append('\n'));
        }
        return md.toString();
    }

    /** The longest part of a blocked verdict's message the report quotes. */
    private static final int MESSAGE_CHARS = 600;

    /**
     * What each blocked verdict, blocking or decided on its second run, said: a false verdict seen once must be
     * diagnosable from the report alone, since a rerun may not meet the same load again.
     */
    private static void blockedMessages(final StringBuilder md, final List<VariantSelfTest.VariantOutcome> outcomes) {
        final StringBuilder lines = new StringBuilder();
        for (final VariantSelfTest.VariantOutcome outcome : outcomes) {
            quote(lines, outcome, outcome.blocking(), " (blocking)");
            quote(lines, outcome, outcome.decidedOnRerun(), " (then decided)");
        }
        if (lines.length() > 0) {
            md.append("\n## What the blocked verdicts said\n\n").append(lines);
        }
    }

    private static void quote(
            final StringBuilder lines,
            final VariantSelfTest.VariantOutcome outcome,
            final List<CaseResult> results,
            final String how) {
        for (final CaseResult result : results) {
            final String message = result.message().strip();
            lines.append("- `")
                    .append(outcome.variant().label())
                    .append("`, ")
                    .append(result.caseId())
                    .append(' ')
                    .append(result.verdict())
                    .append(how)
                    .append(": ")
                    .append((message.length() > MESSAGE_CHARS ? message.substring(0, MESSAGE_CHARS) + " ..." : message)
                            .replaceAll("\\s+", " "))
                    .append('\n');
        }
    }

    private static String cell(final List<CaseResult> results) {
        if (results.isEmpty()) {
            return "-";
        }
        return results.stream()
                .map(r -> r.caseId() + " " + r.verdict())
                .collect(Collectors.joining("; "))
                .replace("|", "\\|");
    }
}

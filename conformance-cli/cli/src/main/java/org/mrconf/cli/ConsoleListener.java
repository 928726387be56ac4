package org.mrconf.cli;

import java.io.PrintWriter;
import java.util.List;
import org.mrconf.runner.RunListener;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * The run on the console: one line per verdict with the clauses and the case id, the whole reason (every line,
 * expected and actual) under any that did not pass, and, on a terminal, a live progress line ({@code [3/14] 6.4.1
 * SelectiveRetransmissionCase.resends...}) that the next verdict overwrites. {@code --quiet} prints only the
 * verdicts that need attention.
 */
final class ConsoleListener implements RunListener {
    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintWriter out;
    private final boolean quiet;
    private final boolean terminal;
    private boolean progressShown;

    ConsoleListener(final PrintWriter out, final boolean quiet, final boolean terminal) {
        this.out = out;
        this.quiet = quiet;
        this.terminal = terminal;
    }

    @Override
    public void planned(final int cases) {
        if (!quiet) {
            // The test vectors register as they are found, so their number is known only at the end: the summary
            // counts cases and vectors together under one verdict each.
            out.printf("Running %d cases and the selected test vectors (the summary counts both)%n", cases);
            out.flush();
        }
    }

    @Override
    public void started(final String caseId, final List<String> clauses, final int index, final int total) {
        if (terminal && !quiet) {
            out.printf("%s[%d/%d] %s %s ...", CLEAR_LINE, index, total, String.join(" ", clauses), caseId);
            out.flush();
            progressShown = true;
        }
    }

    @Override
    public void finished(final CaseResult result) {
        if (progressShown) {
            out.print(CLEAR_LINE);
            progressShown = false;
        }
        final boolean attention = result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
        if (quiet && !attention) {
            return;
        }
        out.printf("%-14s %-24s %s%n", result.verdict(), String.join(" ", result.clauses()), result.caseId());
        if (result.verdict() != Verdict.PASS && !result.message().isBlank()) {
            result.message().lines().forEach(line -> out.printf("               %s%n", line));
        }
        out.flush();
    }
}

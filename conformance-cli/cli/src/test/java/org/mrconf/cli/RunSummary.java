package org.mrconf.cli;

/** What a test reads from the summary lines {@code metaroce run} prints. */
public final class RunSummary {
    private RunSummary() {}

    /**
     * Whether the run left some clause INCONCLUSIVE with nothing failed, warned or in error: what a timing case may
     * rightly do on a loaded machine (it never FAILs there), which makes the exit code 1.
     */
    public static boolean undecidedOnly(final String stdout) {
        return stdout.lines()
                .anyMatch(line -> line.matches("Clauses: .* 0 failed, 0 warned, [1-9][0-9]* inconclusive, .* 0 error"));
    }
}

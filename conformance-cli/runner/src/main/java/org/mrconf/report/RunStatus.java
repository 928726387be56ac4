package org.mrconf.report;

import org.mrconf.verdict.RunRecord;

/**
 * Whether a run's verdicts are complete. Every format states it, so a reviewer never takes a cut-short run for a
 * whole one.
 */
enum RunStatus {
    /** The run ended normally: every selected case has a verdict. */
    COMPLETE("complete"),
    /** Still running (the report is rewritten after each case), or the process died without a word. */
    RUNNING("running"),
    /** Cut short: SIGINT, or a crash the runner noticed. Verdicts are missing. */
    INTERRUPTED("interrupted");

    private final String label;

    RunStatus(final String label) {
        this.label = label;
    }

    /** The lower-case word the reports use. */
    String label() {
        return label;
    }

    static RunStatus of(final RunRecord record) {
        if (record.interrupted()) {
            return INTERRUPTED;
        }
        return record.finishedAt().isPresent() ? COMPLETE : RUNNING;
    }
}

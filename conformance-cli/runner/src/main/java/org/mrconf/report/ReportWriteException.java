package org.mrconf.report;

import java.io.IOException;
import java.util.List;

/** One or more report files could not be written; the others were. The message names each file and why. */
public final class ReportWriteException extends IOException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    ReportWriteException(final List<String> problems, final Throwable first) {
        super(String.join("; ", problems), first);
        this.problems = List.copyOf(problems);
    }

    /** One line per file that could not be written. */
    public List<String> problems() {
        return problems;
    }
}

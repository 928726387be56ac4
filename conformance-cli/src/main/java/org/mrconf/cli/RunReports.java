package org.mrconf.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.RunRecord;

/** The run folder's report files, written from the run record after every case and at the end. */
final class RunReports {
    private RunReports() {}

    static void write(final Path runDir, final RunRecord record) throws IOException {
        ReportWriters.writeAll(runDir, record);
    }
}

package org.mrconf.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.RunRecord;

/**
 * The run folder's report files (report.json, report.html, junit.xml, ocptv.jsonl and the evidence pcap slices),
 * written from the run record after every case and at the end, so an interrupted run still leaves whole files.
 */
final class RunReports {
    private RunReports() {}

    static void write(final Path runDir, final RunRecord record) throws IOException {
        ReportWriters.writeAll(runDir, record);
    }
}

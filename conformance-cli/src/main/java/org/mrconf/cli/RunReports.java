package org.mrconf.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.RunRecord;

/**
 * The run folder's report files (report.json, report.html, junit.xml, ocptv.jsonl and the evidence pcap slices),
 * written from the run record after every case and at the end, so an interrupted run still leaves whole files.
 */
public final class RunReports {
    private RunReports() {}

    /** {@code reports/runs/<UTC time>-<dut>/} under the working directory. */
    public static Path defaultRunDir(final String target) {
        final String time =
                DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").format(ZonedDateTime.now(ZoneOffset.UTC));
        String dut = target == null
                ? "embedded"
                : target.replaceAll("^.*[/\\\\]", "").replaceAll("\\.json$", "");
        dut = dut.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+|_+$", "");
        return Path.of("reports", "runs", time + "-" + (dut.isEmpty() ? "dut" : dut));
    }

    static void write(final Path runDir, final RunRecord record) throws IOException {
        ReportWriters.writeAll(runDir, record);
    }
}

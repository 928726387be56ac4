package org.mrconf.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.RunRecord;

/**
 * The one entry point the runner calls: writes every report file of a run into its folder. Idempotent, and each
 * file is replaced atomically, so the runner can call it after every case and a run killed at any moment still
 * leaves valid files (marked {@code running} or {@code interrupted} until the final call with {@code finishedAt}).
 */
public final class ReportWriters {
    /** The file of record; every other file can be rebuilt from it. */
    public static final String REPORT_JSON = "report.json";

    public static final String REPORT_HTML = "report.html";
    public static final String JUNIT_XML = "junit.xml";
    public static final String OCPTV_JSONL = "ocptv.jsonl";

    /** A case's evidence never changes once recorded, so its slice is not rewritten on every call. */
    private static final SliceCache WRITTEN_SLICES = new SliceCache();

    private ReportWriters() {}

    /**
     * Writes the evidence pcap slices, then report.json, junit.xml, ocptv.jsonl and report.html into {@code runDir}
     * (created when missing). A file that cannot be written does not stop the others. Calls are serialised (a
     * shutdown hook writing the interrupted record waits for a write in progress), so the last call's record is
     * the one on disk.
     *
     * @throws ReportWriteException naming every file that could not be written
     */
    public static synchronized void writeAll(final Path runDir, final RunRecord record) throws IOException {
        Objects.requireNonNull(runDir, "runDir");
        Objects.requireNonNull(record, "record");
        final List<String> problems = new ArrayList<>();
        final Throwable[] first = {null};
        final Step step = (file, action) -> {
            try {
                action.run();
            } catch (IOException | RuntimeException e) {
                problems.add(
                        file + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
                if (first[0] == null) {
                    first[0] = e;
                }
            }
        };
        for (final CaseResult result : record.cases()) {
            if (result.evidence().pcapFile().isPresent()) {
                final String name = result.evidence().pcapFile().get();
                step.run(name, () -> WRITTEN_SLICES.writeIfChanged(inside(runDir, name), result));
            }
        }
        step.run(REPORT_JSON, () -> AtomicFiles.writeString(runDir.resolve(REPORT_JSON), JsonReport.toJson(record)));
        step.run(JUNIT_XML, () -> AtomicFiles.writeString(runDir.resolve(JUNIT_XML), JunitXmlReport.toXml(record)));
        step.run(OCPTV_JSONL, () -> AtomicFiles.writeString(runDir.resolve(OCPTV_JSONL), OcptvReport.toJsonl(record)));
        step.run(REPORT_HTML, () -> AtomicFiles.writeString(runDir.resolve(REPORT_HTML), HtmlReport.toHtml(record)));
        if (!problems.isEmpty()) {
            throw new ReportWriteException(problems, first[0]);
        }
    }

    /** Writes only report.html to {@code file}, atomically ({@code metaroce report html} rebuilds it). */
    public static void writeHtml(final Path file, final RunRecord record) throws IOException {
        AtomicFiles.writeString(file, HtmlReport.toHtml(record));
    }

    /** Resolves a file the record names, refusing one outside the run folder. */
    static Path inside(final Path runDir, final String relative) {
        final Path base = runDir.toAbsolutePath().normalize();
        final Path file = base.resolve(relative).normalize();
        if (!file.startsWith(base) || file.equals(base)) {
            throw new IllegalArgumentException("'" + relative + "' is not a file inside the run folder " + base);
        }
        return file;
    }

    @FunctionalInterface
    private interface Step {
        void run(String file, Action action);
    }

    @FunctionalInterface
    private interface Action {
        void run() throws IOException;
    }
}

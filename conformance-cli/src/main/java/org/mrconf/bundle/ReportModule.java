package org.mrconf.bundle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.report.ReportSchemas;
import org.mrconf.report.ReportWriters;

/**
 * The bundle's view of the report module: its reader of report.json and its schema checks of report.json,
 * junit.xml and ocptv.jsonl (the same checks as {@code metaroce report validate}). The bundle never has its own
 * idea of the report formats.
 */
public final class ReportModule {
    private ReportModule() {}

    /** Reads report.json into a run record. */
    public static RunFolder.Reader reader() {
        return new InterimReportReader();
    }

    /** Checks a run folder's reports against the schemas bundled in the jar. */
    public static BundleVerifier.ReportValidator validator() {
        return validator(ReportSchemas.bundled());
    }

    /** Checks a run folder's reports against {@code schemas}. */
    public static BundleVerifier.ReportValidator validator(final ReportSchemas schemas) {
        return runDir -> {
            final List<String> problems = new ArrayList<>();
            final String prefix = BundleLayout.RUN + "/";
            check(
                    runDir,
                    ReportWriters.REPORT_JSON,
                    problems,
                    text -> schemas.checkReportJson(prefix + ReportWriters.REPORT_JSON, text));
            check(
                    runDir,
                    ReportWriters.JUNIT_XML,
                    problems,
                    text -> schemas.checkJunitXml(prefix + ReportWriters.JUNIT_XML, text));
            check(
                    runDir,
                    ReportWriters.OCPTV_JSONL,
                    problems,
                    text -> schemas.checkOcptv(prefix + ReportWriters.OCPTV_JSONL, text));
            return problems;
        };
    }

    private interface Check {
        List<String> run(String text);
    }

    private static void check(final Path runDir, final String name, final List<String> problems, final Check check)
            throws IOException {
        final Path file = runDir.resolve(name);
        if (!Files.isRegularFile(file)) {
            return; // the integrity check names a missing report
        }
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            problems.add(BundleLayout.RUN + "/" + name + ": not UTF-8 text");
            return;
        }
        problems.addAll(check.run(text));
    }
}

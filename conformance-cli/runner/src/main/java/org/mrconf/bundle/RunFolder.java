package org.mrconf.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.RunRecord;

/**
 * A run folder as the bundle reads it: the {@link RunRecord} from {@code report.json} (through the report module's
 * reader, so the bundle never has its own idea of the format) and the report's JSON tree for the fields the record
 * does not hold (the summary counts and the vector list).
 *
 * @param dir    the folder
 * @param record the run as report.json records it
 * @param report report.json as a tree
 */
public record RunFolder(Path dir, RunRecord record, JsonNode report) {
    public RunFolder {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(report, "report");
    }

    /** Reads a run's report into a record. */
    @FunctionalInterface
    public interface Reader {
        /**
         * @throws IOException          when the file cannot be read
         * @throws RuntimeException     with a message naming the file and field when it is not a report
         */
        RunRecord read(Path reportJson) throws IOException;
    }

    /**
     * Reads {@code dir/report.json}.
     *
     * @throws BundleInputException naming the file (and the field, as the reader names it) when it cannot be read
     */
    public static RunFolder read(final Path dir, final Reader reader) {
        final Path reportJson = dir.resolve("report.json");
        if (!Files.isRegularFile(reportJson)) {
            throw new BundleInputException(reportJson + ": missing; RUN_DIR must be a run folder that metaroce run"
                    + " wrote (report.json, report.html, junit.xml, ocptv.jsonl)");
        }
        try {
            final JsonNode tree =
                    BundleDocuments.MAPPER.readTree(UserFiles.readUtf8Inside(dir, reportJson, UserFiles.Kind.REPORT));
            return new RunFolder(dir, reader.read(reportJson), tree);
        } catch (IOException | RuntimeException e) {
            if (e instanceof BundleInputException bundle) {
                throw bundle;
            }
            final String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            final String line = message.lines().findFirst().orElse("");
            throw new BundleInputException(line.contains(reportJson.toString()) ? line : reportJson + ": " + line, e);
        }
    }
}

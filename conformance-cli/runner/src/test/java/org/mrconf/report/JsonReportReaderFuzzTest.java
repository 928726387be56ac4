package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the report.json reader behind {@code report show|html} and {@code bundle} (issue 36):
 * any bytes in a run folder's report.json give a run record or one {@link ReportInputException} naming the file,
 * never another exception. Seeds: the golden reports and broken ones. Regression inputs:
 * {@code src/test/resources/org/mrconf/report/JsonReportReaderFuzzTestInputs/}.
 */
class JsonReportReaderFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void anyReportJsonGivesARecordOrOneNamedError(final byte[] bytes) throws Exception {
        final Path run = Files.createTempDirectory("fuzz-run");
        final Path file = run.resolve(ReportWriters.REPORT_JSON);
        try {
            Files.write(file, bytes);
            try {
                assertThat(JsonReportReader.read(file)).isNotNull();
            } catch (final ReportInputException e) {
                assertThat(e.getMessage()).startsWith(file.toString());
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(run);
        }
    }
}

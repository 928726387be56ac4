package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.verdict.RunRecord;

/** report.json reads back into the very record it was written from; bad files name the file and field. */
class JsonReportReaderTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadBackTheRecordItWasWrittenFrom() throws Exception {
        for (final RunRecord r : new RunRecord[] {
            SampleRuns.finished(), SampleRuns.running(), SampleRuns.interrupted(), SampleRuns.withVector()
        }) {
            assertThat(JsonReportReader.parse("report.json", JsonReport.toJson(r)))
                    .isEqualTo(r);
        }
    }

    @Test
    void shouldNameTheFieldOfAWrongShape() {
        final String json = JsonReport.toJson(SampleRuns.finished())
                .replaceFirst("\"durationNs\" : 250000000", "\"durationNs\" : \"long\"");

        assertThatThrownBy(() -> JsonReportReader.parse("run/report.json", json))
                .isInstanceOf(ReportInputException.class)
                .hasMessage("run/report.json: field /cases/0/durationNs: expected an integer");
    }

    @Test
    void shouldRefuseAnotherMajorVersionOrAnotherFormat() {
        final String json = JsonReport.toJson(SampleRuns.finished());

        assertThatThrownBy(() -> JsonReportReader.parse(
                        "r.json",
                        json.replace(
                                "\"formatVersion\" : \"" + JsonReport.FORMAT_VERSION + "\"",
                                "\"formatVersion\" : \"2.0\"")))
                .hasMessageContaining("/formatVersion");
        assertThatThrownBy(() -> JsonReportReader.parse("r.json", "{\"format\": \"something-else\"}"))
                .hasMessageContaining("/format");
        assertThatThrownBy(() -> JsonReportReader.parse("r.json", "[1, 2")).hasMessageStartingWith("r.json: not JSON");
    }

    @Test
    void shouldAcceptANewerMinorVersionWithFieldsItDoesNotKnow() throws Exception {
        final String json = JsonReport.toJson(SampleRuns.finished())
                .replace(
                        "\"formatVersion\" : \"" + JsonReport.FORMAT_VERSION + "\"",
                        "\"formatVersion\" : \"1.3\", \"futureField\" : 1");

        assertThat(JsonReportReader.parse("r.json", json)).isEqualTo(SampleRuns.finished());
    }

    @Test
    void shouldReadAReportWhoseVectorsCarryNoFilesAsItWasWritten() throws Exception {
        final String json =
                JsonReport.toJson(SampleRuns.withVector()).replaceAll("(?s),\\s*\"files\" : \\{[^}]*\\}", "");
        assertThat(json).doesNotContain("\"files\"");
        assertThat(JsonReportReader.parse("r.json", json).vectors())
                .singleElement()
                .satisfies(v -> assertThat(v.files()).isEmpty());
    }

    @Test
    void shouldNameAMissingFile() {
        assertThatThrownBy(() -> JsonReportReader.read(dir.resolve("report.json")))
                .hasMessageEndingWith("report.json: no such file");
    }
}

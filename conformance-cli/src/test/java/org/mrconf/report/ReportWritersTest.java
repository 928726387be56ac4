package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;

class ReportWritersTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheSameFilesWhenCalledAgain() throws Exception {
        final RunRecord record = SampleRuns.finished();
        ReportWriters.writeAll(dir, record);
        final String first = Files.readString(dir.resolve(ReportWriters.REPORT_JSON));
        ReportWriters.writeAll(dir, record);

        assertThat(Files.readString(dir.resolve(ReportWriters.REPORT_JSON))).isEqualTo(first);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("no temporary file is left behind")
                    .noneMatch(n -> n.endsWith(".tmp"));
        }
    }

    @Test
    void shouldMarkARunThatHasNotFinished() throws Exception {
        ReportWriters.writeAll(dir, SampleRuns.running());
        final JsonNode json = JsonReport.MAPPER.readTree(
                dir.resolve(ReportWriters.REPORT_JSON).toFile());

        assertThat(json.get("status").asText()).isEqualTo("running");
        assertThat(json.get("finishedAt").isNull()).isTrue();
    }

    @Test
    void shouldRefuseAPcapFileOutsideTheRunFolderAndStillWriteTheRest() throws Exception {
        final CaseResult escaping =
                SampleRuns.withPcap(SampleRuns.finished().cases().get(0), "../outside.pcap");
        final RunRecord record = SampleRuns.withCases(SampleRuns.finished(), List.of(escaping));

        assertThatThrownBy(() -> ReportWriters.writeAll(dir, record))
                .isInstanceOf(ReportWriteException.class)
                .hasMessageContaining("../outside.pcap");
        assertThat(dir.resolve(ReportWriters.REPORT_JSON)).exists();
        assertThat(dir.resolveSibling("outside.pcap")).doesNotExist();
    }

    @Test
    void shouldWriteNoPcapWhenTheEvidenceNamesNone() throws Exception {
        final CaseResult plain = SampleRuns.withEvidence(
                SampleRuns.finished().cases().get(0), new Evidence("1", "2", List.of(), Optional.empty()));
        ReportWriters.writeAll(dir, SampleRuns.withCases(SampleRuns.finished(), List.of(plain)));

        assertThat(dir.resolve("evidence")).doesNotExist();
    }
}

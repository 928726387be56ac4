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

    @Test
    void shouldRewriteAPcapSliceOnlyWhenItsCaseOrTheFileChanged() throws Exception {
        final RunRecord record = SampleRuns.finished();
        ReportWriters.writeAll(dir, record);
        final Path pcap =
                dir.resolve(record.cases().get(1).evidence().pcapFile().orElseThrow());
        final byte[] good = Files.readAllBytes(pcap);
        final var written = Files.getLastModifiedTime(pcap);

        // Same size and time as written: taken as the file this process wrote, so not rewritten.
        Files.write(pcap, new byte[good.length]);
        Files.setLastModifiedTime(pcap, written);
        ReportWriters.writeAll(dir, record);
        assertThat(Files.readAllBytes(pcap)).isEqualTo(new byte[good.length]);

        // Changed behind the writer's back (another size): rewritten.
        Files.write(pcap, new byte[3]);
        ReportWriters.writeAll(dir, record);
        assertThat(Files.readAllBytes(pcap)).isEqualTo(good);

        // Removed: rewritten.
        Files.delete(pcap);
        ReportWriters.writeAll(dir, record);
        assertThat(Files.readAllBytes(pcap)).isEqualTo(good);

        // Another case result under the same name: rewritten.
        final CaseResult other = SampleRuns.withPcap(
                record.cases().get(1),
                record.cases().get(1).evidence().pcapFile().orElseThrow());
        ReportWriters.writeAll(dir, SampleRuns.withCases(record, List.of(other)));
        assertThat(Files.readAllBytes(pcap)).isNotEqualTo(good);
    }

    @Test
    void shouldWriteFilesOthersCanRead() throws Exception {
        ReportWriters.writeAll(dir, SampleRuns.finished());
        final Path pcap = dir.resolve(
                SampleRuns.finished().cases().get(1).evidence().pcapFile().orElseThrow());
        final Path reference = Files.writeString(dir.resolve("plain.txt"), "x"); // created with the umask

        for (final Path f :
                List.of(dir.resolve(ReportWriters.REPORT_JSON), dir.resolve(ReportWriters.REPORT_HTML), pcap)) {
            assertThat(Files.getPosixFilePermissions(f))
                    .as("%s has the permissions of any new file, not owner-only", f.getFileName())
                    .isEqualTo(Files.getPosixFilePermissions(reference));
        }
    }
}

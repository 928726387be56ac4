package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;
import org.mrconf.verdict.Verdict;

/** The bundle's vector manifest pins each replayed vector by the SHA-256 the run's report recorded. */
class BundleVectorsTest {
    private static final String ID = "6.5.1/duplicate-write";

    @Test
    void shouldListEachReplayedVectorWithItsHashesFromTheReport() {
        final TreeMap<String, String> files = new TreeMap<>(Map.of(ID + "/vector.json", "ab".repeat(32)));
        final JsonNode document =
                BundleDocuments.vectors(record(List.of(new VectorDigest(ID, "cd".repeat(32), files))));

        final JsonNode vector = document.path("vectors").get(0);
        assertThat(vector.path("id").asText()).isEqualTo(ID);
        assertThat(vector.path("verdict").asText()).isEqualTo("PASS");
        assertThat(vector.path("sha256").asText()).isEqualTo("cd".repeat(32));
        assertThat(vector.path("files").path(ID + "/vector.json").asText()).isEqualTo("ab".repeat(32));
        assertThat(document.path("note").asText()).doesNotContain("cannot pin");
    }

    @Test
    void shouldSayItCannotPinTheBytesOfAReportThatRecordedNoHashes() {
        final JsonNode document = BundleDocuments.vectors(record(List.of()));

        assertThat(document.path("vectors").get(0).path("sha256").isNull()).isTrue();
        assertThat(document.path("note").asText()).contains("cannot pin");
    }

    private static RunRecord record(final List<VectorDigest> vectors) {
        final CaseResult result = new CaseResult(
                "vector:" + ID,
                ID,
                List.of("6.5.1"),
                CaseKind.INOPPORTUNE,
                Verdict.PASS,
                "",
                Instant.EPOCH,
                0,
                Evidence.NONE);
        return new RunRecord(
                "test",
                "unknown",
                "0.2",
                "metaroce run",
                new RunRecord.DutDescription(
                        "reference", "v", "m", "f", "d", List.of("core"), List.of(), List.of(), Map.of(), "embedded"),
                Instant.EPOCH,
                Optional.of(Instant.EPOCH),
                false,
                Map.of(),
                List.of(result),
                List.of(),
                vectors);
    }
}

package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.replay.VectorFiles;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Evidence;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.VectorDigest;
import org.mrconf.verdict.Verdict;

/** The run record pins each replayed vector's bytes exactly as the committed MANIFEST.sha256 lists them. */
class RunJournalVectorsTest {
    private static final Path COMMITTED = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");
    private static final String ID = "6.5.1/duplicate-write";

    @Test
    void shouldRecordTheHashesOfEachReplayedVectorAsTheManifestListsThem() throws Exception {
        final RunJournal journal = journal();
        journal.vectorRoot(COMMITTED);
        journal.add(result("vector:" + ID));
        journal.add(result("IntegrityCase.badCrc"));
        journal.add(result("vector:" + COMMITTED.resolve("9.9.9/broken/vector.json"))); // an unreadable vector

        final RunRecord record = journal.snapshot(true, false);

        final SortedMap<String, String> manifest = new TreeMap<>();
        for (final String line : Files.readAllLines(COMMITTED.resolve("MANIFEST.sha256"), StandardCharsets.UTF_8)) {
            final String[] parts = line.split(" {2}", 2);
            if (parts[1].startsWith(ID + "/")) {
                manifest.put(parts[1], parts[0]);
            }
        }
        assertThat(manifest).isNotEmpty();
        final StringBuilder lines = new StringBuilder();
        manifest.forEach(
                (path, hash) -> lines.append(hash).append("  ").append(path).append('\n'));
        assertThat(record.vectors())
                .containsExactly(new VectorDigest(
                        ID, VectorFiles.sha256(lines.toString().getBytes(StandardCharsets.UTF_8)), manifest));
    }

    private static RunJournal journal() throws Exception {
        return new RunJournal(
                new BuildInfo("test", "unknown"),
                new CatalogueLoader().loadBundled(),
                "metaroce run",
                new RunRecord.DutDescription(
                        "reference", "v", "m", "f", "d", List.of("core"), List.of(), List.of(), Map.of(), "embedded"),
                Map.of());
    }

    private static CaseResult result(final String id) {
        return new CaseResult(
                id, id, List.of("6.5.1"), CaseKind.VALID, Verdict.PASS, "", Instant.EPOCH, 0, Evidence.NONE);
    }
}

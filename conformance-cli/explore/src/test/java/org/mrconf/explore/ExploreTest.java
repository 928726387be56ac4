package org.mrconf.explore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.authoring.SidecarSchema;
import org.mrconf.authoring.VectorManifest;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.devices.OpenDevice;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorReplay;
import org.mrconf.verdict.Verdict;

/** A short seeded explore finds nothing against the clean reference, and finds, shrinks and replays a planted defect. */
class ExploreTest {
    @TempDir
    Path out;

    @Test
    void aShortExploreOfTheCleanReferenceFindsNothing() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        try (OpenDevice device = OpenDevice.open("reference")) {
            final Explorer explorer =
                    new Explorer(device.device(), catalogue, Clock.systemUTC(), out, Explorer.Listener.silent());
            final Explorer.Result result = explorer.explore(39, Duration.ofSeconds(6));
            assertThat(result.programs()).isPositive();
            assertThat(result.findings()).isEmpty();
        }
    }

    @Test
    void aPlantedDefectIsFoundShrunkAndReplayedAsAFailingVector() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Path root;
        try (OpenDevice device = OpenDevice.open("reference?defect=write-ignores-message-offset")) {
            final Explorer explorer = new Explorer(
                            device.device(), catalogue, Clock.systemUTC(), out, Explorer.Listener.silent())
                    .stopAtFirst(true)
                    .shrinkBudget(40, Duration.ofSeconds(15));
            final Explorer.Result result = explorer.explore(39, Duration.ofSeconds(10));
            assertThat(result.findings()).isNotEmpty();
            final Explorer.Finding finding = result.findings().get(0);
            assertThat(finding.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(finding.clauses()).contains("7.2.1");
            assertThat(finding.shrunk().messages().size())
                    .isLessThanOrEqualTo(finding.original().messages().size());
            assertThat(finding.vector()).isPresent();
            assertThat(finding.replayFails()).isTrue();
            root = explorer.vectorRoot();
            final VectorCorpus corpus = VectorCorpus.discover(root, catalogue);
            assertThat(corpus.problems()).isEmpty();
            assertThat(corpus.vectors()).hasSize(1);
            final TestVector vector = corpus.vectors().get(0);
            // What `vectors verify --root` checks beyond the reader: the JSON Schema and the manifest.
            assertThat(SidecarSchema.bundled().check(vector.folder().resolve(TestVector.SIDECAR)))
                    .isEmpty();
            assertThat(VectorManifest.verify(root)).isEmpty();
            assertThatThrownBy(() -> VectorReplay.run(
                            vector,
                            device.device().control(),
                            device.device().link(),
                            VectorReplay.Declared.of(device.device().profile().parameters())))
                    .isInstanceOf(AssertionError.class);
        }
        try (OpenDevice clean = OpenDevice.open("reference")) {
            final TestVector vector =
                    VectorCorpus.discover(root, catalogue).vectors().get(0);
            VectorReplay.run(
                    vector,
                    clean.device().control(),
                    clean.device().link(),
                    VectorReplay.Declared.of(clean.device().profile().parameters()));
        }
    }
}

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

/**
 * A short seeded explore finds nothing against the clean reference (READs among its programs), and finds, shrinks and
 * replays a planted defect, of WRITE placement and of the READ responder.
 */
class ExploreTest {
    @TempDir
    Path out;

    @Test
    void aShortExploreOfTheCleanReferenceFindsNothing() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        try (OpenDevice device = OpenDevice.open("reference")) {
            final java.util.concurrent.atomic.AtomicInteger reading = new java.util.concurrent.atomic.AtomicInteger();
            final java.util.concurrent.atomic.AtomicInteger devicesReading =
                    new java.util.concurrent.atomic.AtomicInteger();
            final Explorer explorer =
                    new Explorer(device.device(), catalogue, Clock.systemUTC(), out, new Explorer.Listener() {
                        @Override
                        public void program(final int number, final Program program, final Trial.Outcome outcome) {
                            if (program.messages().stream().anyMatch(m -> m.op() == Program.Op.READ)) {
                                (program.deviceSends() ? devicesReading : reading).incrementAndGet();
                            }
                        }

                        @Override
                        public void finding(final Explorer.Finding finding) {}
                    });
            final Explorer.Result result = explorer.explore(39, Duration.ofSeconds(6));
            assertThat(result.programs()).isPositive();
            assertThat(result.findings()).isEmpty();
            // The reference claims read: READs of the tester's and of the device's were among the programs.
            assertThat(reading).hasPositiveValue();
            assertThat(devicesReading).hasPositiveValue();
        }
    }

    @Test
    void aPlantedDefectIsFoundShrunkAndReplayedAsAFailingVector() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Path root;
        try (OpenDevice device = OpenDevice.open("reference?defect=write-ignores-message-offset")) {
            final Explorer explorer = explorerOf(device, catalogue, 40, Duration.ofSeconds(15));
            final Explorer.Finding finding = firstFinding(explorer, "7.2.1");
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
        replaysCleanOnTheReference(root, catalogue);
    }

    @Test
    void aPlantedDefectOfTheReadResponderIsFoundShrunkAndReplayedAsAFailingVector() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Path root;
        try (OpenDevice device = OpenDevice.open("reference?defect=read-response-short")) {
            final Explorer explorer = explorerOf(device, catalogue, 30, Duration.ofSeconds(10));
            final Explorer.Finding finding = firstFinding(explorer, "7.4.1");
            assertThat(finding.shrunk().messages()).anyMatch(m -> m.op() == Program.Op.READ);
            assertThat(finding.vector()).isPresent();
            assertThat(finding.replayFails()).isTrue();
            root = explorer.vectorRoot();
            final TestVector vector =
                    VectorCorpus.discover(root, catalogue).vectors().get(0);
            assertThat(vector.sidecar().profiles()).contains("read");
            assertThat(SidecarSchema.bundled().check(vector.folder().resolve(TestVector.SIDECAR)))
                    .isEmpty();
            assertThat(VectorManifest.verify(root)).isEmpty();
        }
        replaysCleanOnTheReference(root, catalogue);
    }

    /** An explorer of {@code device} that stops at its first finding and shrinks it within the budget given. */
    private Explorer explorerOf(
            final OpenDevice device, final ClauseCatalogue catalogue, final int shrinkRuns, final Duration shrinkTime)
            throws java.io.IOException {
        return new Explorer(device.device(), catalogue, Clock.systemUTC(), out, Explorer.Listener.silent())
                .stopAtFirst(true)
                .shrinkBudget(shrinkRuns, shrinkTime);
    }

    /** The first finding of 10 seconds of seed 39: a FAIL of {@code clause}. */
    private static Explorer.Finding firstFinding(final Explorer explorer, final String clause) throws Exception {
        final Explorer.Result result = explorer.explore(39, Duration.ofSeconds(10));
        assertThat(result.findings()).isNotEmpty();
        final Explorer.Finding finding = result.findings().get(0);
        assertThat(finding.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(finding.clauses()).contains(clause);
        return finding;
    }

    /** The one vector under {@code root} replays without a violation against the clean reference. */
    private static void replaysCleanOnTheReference(final Path root, final ClauseCatalogue catalogue) throws Exception {
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

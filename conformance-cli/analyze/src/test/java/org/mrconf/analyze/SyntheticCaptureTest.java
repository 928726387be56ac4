package org.mrconf.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.verdict.Verdict;

/** The benchmark's synthetic capture is conformant, so the benchmark measures the analyser on clean traffic. */
class SyntheticCaptureTest {
    @TempDir
    Path dir;

    @Test
    void shouldBeJudgedConformantByTheAnalyser() throws Exception {
        final Path capture = dir.resolve("synthetic.pcap");
        SyntheticCapture.write(capture, 20_000, 16, 1);
        final CaptureAnalysis analysis = CaptureAnalysis.of(
                capture, 4796, Duration.ofMillis(5), new CatalogueLoader().loadBundled(), Map.of(), Optional.empty());
        assertThat(analysis.frames()).isEqualTo(20_000);
        assertThat(analysis.cases()).noneMatch(c -> c.verdict() == Verdict.FAIL);
        assertThat(analysis.cases())
                .filteredOn(c -> c.clauses().contains("6.4.2"))
                .anyMatch(c -> c.verdict() == Verdict.PASS);
    }
}

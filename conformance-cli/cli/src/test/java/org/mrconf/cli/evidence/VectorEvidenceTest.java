package org.mrconf.cli.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.defect.Defects;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * Issue 35: a vector that fails keeps its evidence as a case does, the packets the tester sent and received (for the
 * ladder diagram) and a pcap, so that a reviewer can triage it without rerunning it.
 */
class VectorEvidenceTest {
    @Test
    @Timeout(120)
    void aFailingVectorKeepsItsPacketsAndItsPcap() throws Exception {
        try (EmbeddedReferenceDut dut = EmbeddedReferenceDut.start(
                Defects.parse("out-of-order-dropped-with-ack"), ReferenceConfiguration.STANDARD)) {
            final List<CaseResult> results = CaseRunner.run(
                    dut.device(),
                    RunOptions.defaults()
                            .withVectorRoot(org.mrconf.selftest.SelfTestVectors.locate()
                                    .orElseThrow(() -> new AssertionError("no test-vectors folder above "
                                            + Path.of("").toAbsolutePath())))
                            .withSelection(new Selection(
                                    List.of(),
                                    Set.of(),
                                    Set.of(),
                                    Set.of(),
                                    List.of("vector:6.2.1/sack-across-the-window-per-path"))),
                    ignored -> {});
            assertThat(results).hasSize(1);
            final CaseResult vector = results.get(0);
            assertThat(vector.verdict()).as("%s", vector.message()).isEqualTo(Verdict.FAIL);
            assertThat(vector.evidence().packets())
                    .as("the packets the tester sent and received")
                    .isNotEmpty();
            assertThat(vector.evidence().pcapFile())
                    .hasValue("evidence/vector_6.2.1_sack-across-the-window-per-path.pcap");
        }
    }
}

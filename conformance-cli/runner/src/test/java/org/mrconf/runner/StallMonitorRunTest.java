package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.peer.StallMonitor;
import org.mrconf.runner.fixtures.StallProbeCase;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/** The runner starts a stall monitor for its run and stops it after, or hands the cases the one a caller brought. */
class StallMonitorRunTest {
    private static final String FIXTURES = "org.mrconf.runner.fixtures";
    private static final Selection PROBE =
            new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of("StallProbeCase.*"));

    @Test
    @Timeout(60)
    void shouldRunAMonitorOfItsOwnDuringTheRunAndStopItAfter() throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            final List<CaseResult> results =
                    CaseRunner.run(embedded.device(), RunOptions.defaults().withSelection(PROBE), r -> {}, FIXTURES);
            assertThat(results)
                    .singleElement()
                    .satisfies(r -> assertThat(r.verdict()).isEqualTo(Verdict.PASS));
            assertThat(StallProbeCase.runningThen)
                    .as("running while the case ran")
                    .isTrue();
            assertThat(StallProbeCase.seen.running())
                    .as("stopped after the run")
                    .isFalse();
        }
    }

    @Test
    @Timeout(60)
    void shouldHandTheCasesTheMonitorACallerBroughtAndLeaveItAlone() throws Exception {
        final StallMonitor mine = StallMonitor.on(System::nanoTime);
        mine.record(1_000, 500);
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            CaseRunner.run(
                    embedded.device(),
                    RunOptions.defaults().withSelection(PROBE).withStalls(mine),
                    r -> {},
                    FIXTURES);
        }
        assertThat(StallProbeCase.seen).isSameAs(mine);
        assertThat(mine.stalls()).isEqualTo(1);
    }
}

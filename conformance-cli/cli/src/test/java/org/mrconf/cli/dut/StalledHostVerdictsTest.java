package org.mrconf.cli.dut;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.peer.StallMonitor;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * A timer defect of the reference, judged through the whole runner with a stall monitor the test fills: on a host that
 * stalled for longer than the defect's miss during the measurement, the timing check is INCONCLUSIVE and names the
 * stall; on a host that did not stall, it FAILs as before. Both a Java case ({@code TimerCase}) and a test vector
 * ({@code 6.6.2/dut-timer-resends-the-oldest-psn}, judged by vector replay) are shown.
 */
class StalledHostVerdictsTest {
    private static final Path VECTORS = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");

    /** A monitor that is not running and holds one stall, of {@code stall}, covering every window of the run. */
    private static StallMonitor stalledThroughout(final Duration stall) {
        final StallMonitor monitor = StallMonitor.on(System::nanoTime);
        final long now = System.nanoTime();
        // A stall ending ten minutes from now that began ten minutes ago overlaps every measurement of the test.
        monitor.record(now + Duration.ofMinutes(10).toNanos(), stall.toNanos());
        return monitor;
    }

    private static List<CaseResult> run(final Defect defect, final String cases, final StallMonitor stalls)
            throws Exception {
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start(Defects.of(defect))) {
            return CaseRunner.run(
                    embedded.device(),
                    RunOptions.defaults()
                            .withVectorRoot(VECTORS)
                            .withSelection(new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(cases)))
                            .withStalls(stalls),
                    result -> {});
        }
    }

    @Test
    @Timeout(120)
    void shouldTurnATimerMissWithinTheStallIntoInconclusiveAndLeaveOneWithoutAStallAFailure() throws Exception {
        final String backoff = "TimerCase.backsOffFromTheInitialRtoToTheMaximum";
        assertThat(run(Defect.NO_RTO_BACKOFF, backoff, StallMonitor.none()))
                .singleElement()
                .satisfies(result -> assertThat(result.verdict()).isEqualTo(Verdict.FAIL));
        assertThat(run(Defect.NO_RTO_BACKOFF, backoff, stalledThroughout(Duration.ofMinutes(20))))
                .singleElement()
                .satisfies(result -> {
                    assertThat(result.verdict()).as(result.message()).isEqualTo(Verdict.INCONCLUSIVE);
                    assertThat(result.message()).contains("the host stalled", "re-run on an idle host");
                });
    }

    @Test
    @Timeout(300)
    void shouldTurnAVectorTimerMissWithinTheStallIntoInconclusive() throws Exception {
        final String vector = "vector:6.6.2/dut-timer-resends-the-oldest-psn";
        assertThat(run(Defect.NO_RTO_BACKOFF, vector, StallMonitor.none()))
                .singleElement()
                .satisfies(result -> assertThat(result.verdict()).isEqualTo(Verdict.FAIL));
        assertThat(run(Defect.NO_RTO_BACKOFF, vector, stalledThroughout(Duration.ofMinutes(20))))
                .singleElement()
                .satisfies(result -> {
                    assertThat(result.verdict()).as(result.message()).isEqualTo(Verdict.INCONCLUSIVE);
                    assertThat(result.message()).contains("the host stalled");
                });
    }
}

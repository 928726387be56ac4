package org.mrconf.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

class LanedRunTest {
    private static final Path VECTORS = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");

    @Test
    @Timeout(120)
    void shouldRunTheSameCasesAndVectorsAsOneLaneAndReportThemOnce() throws Exception {
        final RunOptions options = RunOptions.defaults()
                .withSelection(new Selection(List.of("7.4.*"), Set.of(), Set.of(), Set.of(), List.of()))
                .withVectorRoot(VECTORS);
        final List<String> oneLane;
        try (EmbeddedReferenceDut embedded = EmbeddedReferenceDut.start()) {
            oneLane = CaseRunner.run(embedded.device(), options, r -> {}).stream()
                    .map(CaseResult::caseId)
                    .toList();
        }
        final Events events = new Events();
        final List<CaseResult> twoLanes;
        try (EmbeddedReferenceDut cases = EmbeddedReferenceDut.start();
                EmbeddedReferenceDut vectors = EmbeddedReferenceDut.start()) {
            twoLanes = LanedRun.run(cases.device(), vectors.device(), options, events);
        }

        assertThat(oneLane).anyMatch(id -> id.startsWith("vector:7.4.")).anyMatch(id -> id.startsWith("ReadCase."));
        assertThat(twoLanes).extracting(CaseResult::caseId).containsExactlyInAnyOrderElementsOf(oneLane);
        assertThat(twoLanes).extracting(CaseResult::verdict).containsOnly(Verdict.PASS);
        // One plan before any case, one progress count over both lanes, every result heard exactly once.
        assertThat(events.planned).hasSize(1);
        assertThat(events.log.get(0)).isEqualTo("planned");
        assertThat(events.indexes).containsExactlyElementsOf(range(1, twoLanes.size()));
        assertThat(events.finished).containsExactlyInAnyOrderElementsOf(oneLane);
    }

    @Test
    @Timeout(120)
    void shouldRunALaneAloneWhenTheSelectionHasNothingForTheOther() throws Exception {
        try (EmbeddedReferenceDut cases = EmbeddedReferenceDut.start();
                EmbeddedReferenceDut vectors = EmbeddedReferenceDut.start()) {
            final List<CaseResult> onlyVectors = LanedRun.run(
                    cases.device(),
                    vectors.device(),
                    RunOptions.defaults()
                            .withSelection(byCase("vector:7.4.2/*"))
                            .withVectorRoot(VECTORS),
                    r -> {});
            assertThat(onlyVectors)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.caseId()).startsWith("vector:7.4.2/"));

            final List<CaseResult> onlyCases = LanedRun.run(
                    cases.device(),
                    vectors.device(),
                    RunOptions.defaults()
                            .withSelection(byCase("IntegrityCase.*"))
                            .withVectorRoot(VECTORS),
                    r -> {});
            assertThat(onlyCases)
                    .isNotEmpty()
                    .allSatisfy(r -> assertThat(r.caseId()).startsWith("IntegrityCase."));

            assertThatThrownBy(() -> LanedRun.run(
                            cases.device(),
                            vectors.device(),
                            RunOptions.defaults()
                                    .withSelection(byCase("NoSuchCase.*"))
                                    .withVectorRoot(VECTORS),
                            r -> {}))
                    .isInstanceOf(NoCasesSelected.class)
                    .hasMessageContaining("NoSuchCase.*");
        }
    }

    private static List<Integer> range(final int from, final int to) {
        final List<Integer> values = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            values.add(i);
        }
        return values;
    }

    private static Selection byCase(final String pattern) {
        return new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(pattern));
    }

    /** What the listener heard, in order; the lanes call it from two threads. */
    private static final class Events implements RunListener {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> planned = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> indexes = Collections.synchronizedList(new ArrayList<>());
        final List<String> finished = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void planned(final int cases) {
            log.add("planned");
            planned.add(cases);
        }

        @Override
        public void started(final String caseId, final List<String> clauses, final int index, final int total) {
            log.add("started " + caseId);
            indexes.add(index);
        }

        @Override
        public void finished(final CaseResult result) {
            log.add("finished " + result.caseId());
            finished.add(result.caseId());
        }
    }
}

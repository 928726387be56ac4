package org.mrconf.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.defect.Defect;

/**
 * The build's proof that {@code metaroce analyze} catches what a capture shows. Every defect of the reference's
 * catalogue that breaks a clause the analyser judges is captured on the simulated fabric (the defective reference
 * against a clean one) and analysed: each must make its judged clauses FAIL for the defective end, the clean capture
 * must FAIL nothing, and the conformant end must never FAIL. The defects a capture cannot show are listed, each with
 * why, in {@link AnalyzeSelfTest#NOT_VISIBLE}; that list is pinned here so that it only shrinks.
 */
class AnalyzeSelfValidationTest {
    /** The defects analyze cannot see in a capture; each one's reason is in {@link AnalyzeSelfTest#NOT_VISIBLE}. */
    private static final Set<Defect> NOT_VISIBLE = Set.of(
            // Receivers mishandling malformed input, which a conformant peer never sends.
            Defect.DROP_CE_MARKED,
            Defect.REJECT_NONZERO_RESERVED,
            Defect.LENGTH_FROM_DATAGRAM,
            Defect.SEGMENT_BOUNDS_UNCHECKED,
            Defect.READ_REQUEST_FIELDS_UNCHECKED,
            Defect.READ_REQUEST_SEGMENT_CHECKED,
            Defect.ACCEPT_SACK_BIT0,
            Defect.STRICT_MINOR_VERSION,
            Defect.ACCEPT_ANY_MAJOR_VERSION,
            // State a capture does not carry: the agreed initial PSN, the computed RTO, the receiver's arrival order,
            // when a payload reaches memory.
            Defect.INITIAL_PSN_IGNORED,
            Defect.BACKOFF_NOT_RESTORED,
            Defect.LATE_ACK_ENDS_BACKOFF,
            Defect.LATE_ACK_RESETS_EXPIRY_COUNT,
            Defect.PROBE_ECHOES_DATA_TIMESTAMP,
            Defect.TIMESTAMP_ECHO_STUCK,
            Defect.TIMESTAMP_ECHO_SKIPS_RETRANSMISSIONS,
            Defect.RECEIVER_NOT_READY_PSN_RECORDED,
            Defect.REORDER_BUFFER,
            // A sender that never changes a path's port.
            Defect.ACK_ENTROPY_FROM_FIRST_PACKET);

    private static AnalyzeSelfTestReport report;

    @BeforeAll
    static void analyseACaptureOfEveryDefectInScope() throws Exception {
        report = new AnalyzeSelfTest(2).run(Arrays.asList(Defect.values()));
    }

    @Test
    void shouldFailNothingInACaptureOfTheCleanReference() {
        assertThat(report.clean().frames()).isGreaterThan(5_000);
        assertThat(report.clean().failing())
                .as("clauses the clean reference FAILs")
                .isEmpty();
        assertThat(report.clean().failingClean())
                .as("clauses the clean reference FAILs")
                .isEmpty();
    }

    @Test
    void shouldCatchEveryDefectACaptureShowsOnEveryJudgedClause() {
        final List<String> escapes = report.escapes().stream()
                .map(o ->
                        o.name() + " escapes analyze on " + o.missed() + " (defective end failed " + o.failing() + ")")
                .toList();
        assertThat(escapes)
                .as("defects a capture shows that analyze let through")
                .isEmpty();
    }

    @Test
    void shouldNeverFailTheConformantEnd() {
        final List<String> blamed = new ArrayList<>();
        for (final AnalyzeOutcome outcome : report.outcomes()) {
            if (!outcome.failingClean().isEmpty()) {
                blamed.add(outcome.name() + ": the conformant end FAILs " + outcome.failingClean());
            }
        }
        assertThat(blamed).as("false FAILs against the conformant end").isEmpty();
    }

    @Test
    void shouldRunEveryDefectThatBreaksAJudgedClauseAndNoOther() {
        final Set<String> judged = Set.copyOf(CaptureAnalysis.judgedClauses());
        final Set<Defect> expected = Arrays.stream(Defect.values())
                .filter(d -> d.clauses().stream().anyMatch(judged::contains))
                .collect(Collectors.toSet());
        assertThat(report.outcomes().stream().map(AnalyzeOutcome::defect).collect(Collectors.toSet()))
                .isEqualTo(expected);
    }

    @Test
    void shouldKeepTheNotVisibleListExplicitReasonedAndTrue() {
        assertThat(AnalyzeSelfTest.NOT_VISIBLE.keySet())
                .as("grow this list only with a reason a capture cannot show the defect")
                .isEqualTo(NOT_VISIBLE);
        assertThat(AnalyzeSelfTest.NOT_VISIBLE.values())
                .allSatisfy(why -> assertThat(why).hasSizeGreaterThan(40));
        final List<String> stale = report.outcomes().stream()
                .filter(o -> o.notVisible() != null && o.caught())
                .map(o -> o.name() + " is caught after all: take it off the not-visible list")
                .toList();
        assertThat(stale).isEmpty();
    }

    @Test
    void shouldPutTheAnalysisInTheSelfValidationReport() throws Exception {
        final SelfTestReport withAnalysis = new SelfTestReport(
                SelfTest.Scope.DECLARED_CLAUSES, 1, cleanOutcome(), List.of(), 0, java.util.Optional.empty(), report);
        final String md = withAnalysis.markdown(
                new org.mrconf.catalogue.CatalogueLoader().loadBundled(), "metaroce selftest", "test");
        assertThat(md)
                .contains("## Passive analysis (`metaroce analyze`)")
                .contains("`nonzero-reserved-on-send` | 5.1.1 | 5.1.1 | - | caught");
        assertThat(withAnalysis.json("metaroce selftest", "test"))
                .contains("\"analyze\"")
                .contains("\"notVisible\"");
        assertThat(withAnalysis.passed()).isEqualTo(report.passed());
    }

    private static DefectOutcome cleanOutcome() {
        return DefectOutcome.of(null, List.of(), 0);
    }
}

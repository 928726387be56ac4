package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/** What the OCPTV spec asks beyond its JSON Schema: order, one step per clause, allowed status/result pairs. */
class OcptvReportTest {
    /** The pairs the OCPTV 2.0 spec lists as valid ("Valid Test Result and Test Status Combinations"). */
    private static final Set<String> ALLOWED =
            Set.of("SKIP/NOT_APPLICABLE", "ERROR/NOT_APPLICABLE", "COMPLETE/PASS", "COMPLETE/FAIL");

    static Stream<RunRecord> samples() {
        return ReportSchemasTest.samples();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void shouldStartWithTheSchemaVersionAndEndWithTestRunEnd(final RunRecord record) throws Exception {
        final List<JsonNode> lines = lines(record);

        assertThat(lines.get(0).has("schemaVersion")).isTrue();
        assertThat(lines.get(1)
                        .at("/testRunArtifact/testRunStart/dutInfo/dutInfoId")
                        .asText())
                .isEqualTo("dut0");
        assertThat(lines.get(lines.size() - 1).at("/testRunArtifact/testRunEnd").isObject())
                .isTrue();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i).get("sequenceNumber").asInt()).isEqualTo(i);
        }
        for (int i = 1; i < lines.size(); i++) {
            assertThat(Instant.parse(lines.get(i).get("timestamp").asText()))
                    .as("line %d's timestamp does not go back", i + 1)
                    .isAfterOrEqualTo(
                            Instant.parse(lines.get(i - 1).get("timestamp").asText()));
        }
        final JsonNode end = lines.get(lines.size() - 1).at("/testRunArtifact/testRunEnd");
        assertThat(end.get("status").asText() + "/" + end.get("result").asText())
                .isIn(ALLOWED);
    }

    @ParameterizedTest
    @MethodSource("samples")
    void shouldGiveEachClauseOneStepWithOneDiagnosis(final RunRecord record) throws Exception {
        final Map<String, List<String>> steps = new LinkedHashMap<>();
        for (final JsonNode line : lines(record)) {
            final JsonNode step = line.get("testStepArtifact");
            if (step != null) {
                final List<String> kinds =
                        steps.computeIfAbsent(step.get("testStepId").asText(), k -> new ArrayList<>());
                step.fieldNames().forEachRemaining(f -> {
                    if (!f.equals("testStepId")) {
                        kinds.add(f);
                    }
                });
            }
        }
        assertThat(steps).hasSize(record.clauses().size());
        steps.forEach((id, kinds) -> {
            assertThat(kinds.get(0)).as("step %s", id).isEqualTo("testStepStart");
            assertThat(kinds.get(kinds.size() - 1)).as("step %s", id).isEqualTo("testStepEnd");
            assertThat(kinds.stream().filter("diagnosis"::equals).count())
                    .as("step %s", id)
                    .isEqualTo(1);
        });
    }

    @Test
    void shouldMapRunsToTheAllowedStatusAndResult() {
        assertThat(runEnd(SampleRuns.finished())).as("a harness error").isEqualTo("ERROR/NOT_APPLICABLE");
        assertThat(runEnd(SampleRuns.interrupted())).isEqualTo("SKIP/NOT_APPLICABLE");
        assertThat(runEnd(SampleRuns.running())).isEqualTo("SKIP/NOT_APPLICABLE");
        assertThat(runEnd(only(Verdict.PASS))).isEqualTo("COMPLETE/PASS");
        assertThat(runEnd(only(Verdict.PASS, Verdict.WARN, Verdict.NOT_APPLICABLE)))
                .isEqualTo("COMPLETE/PASS");
        assertThat(runEnd(only(Verdict.PASS, Verdict.FAIL, Verdict.INCONCLUSIVE)))
                .isEqualTo("COMPLETE/FAIL");
        assertThat(runEnd(only(Verdict.PASS, Verdict.INCONCLUSIVE)))
                .as("undecided")
                .isEqualTo("SKIP/NOT_APPLICABLE");
        assertThat(runEnd(only(Verdict.NOT_APPLICABLE))).as("nothing applied").isEqualTo("SKIP/NOT_APPLICABLE");
        assertThat(runEnd(ReportSchemasTest.empty())).isEqualTo("SKIP/NOT_APPLICABLE");
    }

    @Test
    void shouldMapVerdictsToDiagnosisTypes() {
        assertThat(OcptvReport.diagnosisType(Verdict.PASS)).isEqualTo("PASS");
        assertThat(OcptvReport.diagnosisType(Verdict.WARN)).isEqualTo("PASS");
        assertThat(OcptvReport.diagnosisType(Verdict.FAIL)).isEqualTo("FAIL");
        assertThat(OcptvReport.diagnosisType(Verdict.INCONCLUSIVE)).isEqualTo("UNKNOWN");
        assertThat(OcptvReport.diagnosisType(Verdict.ERROR)).isEqualTo("UNKNOWN");
        assertThat(OcptvReport.diagnosisType(Verdict.NOT_APPLICABLE)).isEqualTo("UNKNOWN");
    }

    @Test
    void shouldWriteAMeasurementWithAValidatorForANumericCheck() throws Exception {
        final List<JsonNode> measurements = lines(SampleRuns.finished()).stream()
                .map(l -> l.at("/testStepArtifact/measurement"))
                .filter(JsonNode::isObject)
                .toList();

        assertThat(measurements).anySatisfy(m -> {
            assertThat(m.get("name").asText()).isEqualTo("CongestionCase.ecnMarkSlowsTheSender");
            assertThat(m.get("value").asInt()).isEqualTo(75);
            assertThat(m.get("unit").asText()).isEqualTo("percent");
            assertThat(m.at("/validators/0/type").asText()).isEqualTo("LESS_THAN_OR_EQUAL");
            assertThat(m.at("/validators/0/value").asInt()).isEqualTo(50);
        });
        assertThat(measurements)
                .as("cases whose evidence holds no numbers have no measurement")
                .noneSatisfy(m -> assertThat(m.get("name").asText()).startsWith("TimerCase"));
    }

    @Test
    void shouldMeasureTheNumbersACaseStatesInItsMessage() throws Exception {
        final List<JsonNode> measurements = lines(SampleRuns.withNumbers()).stream()
                .map(l -> l.at("/testStepArtifact/measurement"))
                .filter(JsonNode::isObject)
                .toList();

        assertThat(measurements).anySatisfy(m -> {
            assertThat(m.get("name").asText()).isEqualTo("TimerCase.backsOffFromTheInitialRtoToTheMaximum");
            assertThat(m.get("value").asLong()).isEqualTo(2_080_150L);
            assertThat(m.at("/validators/0/type").asText()).isEqualTo("GREATER_THAN_OR_EQUAL");
            assertThat(m.at("/validators/0/value").asLong()).isEqualTo(20_000_000L);
            assertThat(m.at("/validators/1/type").asText()).isEqualTo("LESS_THAN_OR_EQUAL");
            assertThat(m.at("/validators/1/value").asLong()).isEqualTo(100_000_000L);
            assertThat(m.at("/metadata/check").asText())
                    .isEqualTo("6.6.3: interval before resend 3: between 20000" + " and 100000 us");
            assertThat(m.at("/metadata/verdict").asText()).isEqualTo("FAIL");
        });
        assertThat(measurements).anySatisfy(m -> {
            assertThat(m.get("name").asText()).isEqualTo("vector:10.1.1/dut-path-window-halves-on-ce");
            assertThat(m.at("/validators/0/type").asText()).isEqualTo("GREATER_THAN_OR_EQUAL");
            assertThat(m.at("/validators/0/value").asLong()).isEqualTo(236_000_000L);
        });
        assertThat(NumericCheck.fromMessage("Expected size: 4 but was: 1 in:\n[49152]"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.validator()).isEqualTo("EQUAL");
                    assertThat(c.value()).isEqualByComparingTo("1");
                    assertThat(c.limit()).isEqualByComparingTo("4");
                });
        assertThat(NumericCheck.fromMessage("expected: <7> but was: <8>"))
                .singleElement()
                .satisfies(c -> assertThat(c.value()).isEqualByComparingTo("8"));
        assertThat(NumericCheck.fromMessage("Expecting actual:\n  5L\nto be strictly between:\n  [1L, 3L]"))
                .extracting(NumericCheck::validator)
                .containsExactly("GREATER_THAN", "LESS_THAN");
        assertThat(NumericCheck.fromMessage("expected a packet matching ACK, got 0 of 1"))
                .isEmpty();
        assertThat(NumericCheck.fromMessage("expected: \"a\" but was: \"b\"")).isEmpty();
    }

    @Test
    void shouldPointAFileArtifactAtEachEvidencePcap() throws Exception {
        final List<JsonNode> files = lines(SampleRuns.withNumbers()).stream()
                .map(l -> l.at("/testStepArtifact/file"))
                .filter(JsonNode::isObject)
                .toList();

        assertThat(files)
                .extracting(f -> f.get("uri").asText())
                .contains(
                        "evidence/SelectiveRetransmissionCase.resendsExactlyTheMissingPacket.pcap",
                        "evidence/TimerCase.backsOffFromTheInitialRtoToTheMaximum.pcap",
                        "evidence/vector_10.1.1_dut-path-window-halves-on-ce.pcap");
        assertThat(files).allSatisfy(f -> {
            assertThat(f.get("isSnapshot").asBoolean()).isFalse();
            assertThat(f.get("contentType").asText()).isEqualTo("application/vnd.tcpdump.pcap");
            assertThat(f.get("displayName").asText()).endsWith(" evidence");
        });
    }

    @Test
    void shouldReadNumericChecksOnlyFromNumbers() {
        assertThat(NumericCheck.of("1", "2")).hasValueSatisfying(c -> {
            assertThat(c.validator()).isEqualTo("EQUAL");
            assertThat(c.value()).isEqualByComparingTo("2");
            assertThat(c.limit()).isEqualByComparingTo("1");
        });
        assertThat(NumericCheck.of("at least 3 paths", "2 paths"))
                .hasValueSatisfying(c -> assertThat(c.validator()).isEqualTo("GREATER_THAN_OR_EQUAL"));
        assertThat(NumericCheck.of("< 1.5e3 us", "2000 us"))
                .hasValueSatisfying(c -> assertThat(c.validator()).isEqualTo("LESS_THAN"));
        assertThat(NumericCheck.of("0x1f", "0x20"))
                .hasValueSatisfying(c -> assertThat(c.limit()).isEqualByComparingTo("31"));
        assertThat(NumericCheck.of("5 ms", "5 us")).as("units disagree").isEmpty();
        assertThat(NumericCheck.of("[1, 2]", "[1]")).isEmpty();
        assertThat(NumericCheck.of("", "")).isEmpty();
        assertThat(NumericCheck.of("psn 7 on path 1", "psn 7 on path 2")).isEmpty();
    }

    private static String runEnd(final RunRecord record) {
        final String[] pair = OcptvReport.runEnd(record, RunStatus.of(record));
        return pair[0] + "/" + pair[1];
    }

    /** A finished run whose cases have these verdicts (the sample cases, verdicts replaced). */
    private static RunRecord only(final Verdict... verdicts) {
        final List<CaseResult> cases = new ArrayList<>();
        final List<CaseResult> sample = SampleRuns.finished().cases();
        for (int i = 0; i < verdicts.length; i++) {
            final CaseResult c = sample.get(i == 0 ? 0 : i + 1); // skip the FAIL case sharing 6.4.2 with case 0
            cases.add(new CaseResult(
                    c.caseId(),
                    c.title(),
                    c.clauses(),
                    c.kind(),
                    verdicts[i],
                    c.message(),
                    c.startedAt(),
                    c.durationNs(),
                    c.evidence()));
        }
        return SampleRuns.withCases(SampleRuns.finished(), cases);
    }

    private static List<JsonNode> lines(final RunRecord record) throws Exception {
        final List<JsonNode> out = new ArrayList<>();
        for (final String line : OcptvReport.toJsonl(record).split("\n")) {
            out.add(JsonReport.MAPPER.readTree(line));
        }
        return out;
    }
}

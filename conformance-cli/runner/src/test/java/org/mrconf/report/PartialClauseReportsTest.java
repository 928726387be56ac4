package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;

/**
 * A clause whose test purposes were not all exercised is never a plain PASS in any format: the sample run's 4.1.6
 * passed on IPv6 while its IPv4 case needs raw Ethernet. report.json is format 1.1 and still reads and validates a 1.0
 * report.
 */
class PartialClauseReportsTest {
    private static final String MISSING = "UdpChecksumCase.overIpv4";
    private static ReportSchemas shared;

    @BeforeAll
    static void loadSchemas() throws Exception {
        shared = SharedFiles.schemas();
    }

    private static ClauseResult partialClause(final RunRecord record) {
        return record.clauses().stream()
                .filter(c -> c.clauseId().equals("4.1.6"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void shouldRollTheSampleUpToAPartialPass() {
        final ClauseResult clause = partialClause(SampleRuns.finished());

        assertThat(clause.verdict()).isEqualTo(Verdict.PASS);
        assertThat(clause.partial()).isTrue();
        assertThat(clause.notExercised())
                .extracting(ClauseResult.NotExercised::caseId)
                .containsExactly(MISSING);
        // 5.2.6 is NOT_APPLICABLE because the device does not claim read: not a purpose left out.
        assertThat(SampleRuns.finished().clauses())
                .filteredOn(c -> !c.clauseId().equals("4.1.6"))
                .noneMatch(ClauseResult::partial)
                .noneMatch(ClauseResult::unexercised);
    }

    @Test
    void shouldWriteAndReadPartialAndNotExercisedInReportJson() throws Exception {
        final String json = JsonReport.toJson(SampleRuns.finished());
        final JsonNode root = JsonReport.MAPPER.readTree(json);

        assertThat(root.path("formatVersion").asText()).isEqualTo("1.1");
        assertThat(root.path("$schema").asText()).isEqualTo("urn:mrconf:schema:metaroce-report:1.1");
        JsonNode found = null;
        for (final JsonNode c : root.path("clauses")) {
            if (c.path("id").asText().equals("4.1.6")) {
                found = c;
            } else {
                assertThat(c.path("partial").asBoolean())
                        .as(c.path("id").asText())
                        .isFalse();
            }
        }
        assertThat(found).isNotNull();
        assertThat(found.path("verdict").asText()).isEqualTo("PASS");
        assertThat(found.path("partial").asBoolean()).isTrue();
        assertThat(found.path("notExercised")).hasSize(1);
        assertThat(found.path("notExercised").get(0).path("case").asText()).isEqualTo(MISSING);
        assertThat(found.path("notExercised").get(0).path("verdict").asText()).isEqualTo("NOT_APPLICABLE");
        assertThat(found.path("notExercised").get(0).path("reason").asText())
                .startsWith(SampleRuns.LINK_CANNOT)
                .contains("raw Ethernet");
        assertThat(shared.checkReportJson("report.json", json)).isEmpty();
        assertThat(JsonReportReader.parse("report.json", json)).isEqualTo(SampleRuns.finished());
    }

    @Test
    void shouldStillValidateAndReadAFormat10Report() throws Exception {
        final com.fasterxml.jackson.databind.node.ObjectNode tree = JsonReport.toTree(SampleRuns.finished());
        tree.put("$schema", JsonReport.SCHEMA_ID_1_0);
        tree.put("formatVersion", "1.0");
        for (final JsonNode c : tree.path("clauses")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) c).remove(List.of("partial", "notExercised"));
        }
        final String v10 = JsonReport.MAPPER.writeValueAsString(tree);
        assertThat(v10).doesNotContain("notExercised").doesNotContain("\"partial\"");

        assertThat(shared.checkReportJson("report.json", v10)).isEmpty();
        final RunRecord read = JsonReportReader.parse("report.json", v10);
        assertThat(partialClause(read).notExercised()).isEmpty();
        assertThat(partialClause(read).label()).isEqualTo("PASS");
        // A 1.0 report is held to 1.0: the new fields are not in it.
        assertThat(shared.checkReportJson(
                        "report.json",
                        v10.replace(
                                "\"cases\" : [ \"UdpChecksumCase.overIpv6\"",
                                "\"partial\" : true, \"cases\" : [ \"UdpChecksumCase.overIpv6\"")))
                .isNotEmpty();
    }

    @Test
    void shouldRefuseANotExercisedEntryOfTheWrongShape() {
        final String json = JsonReport.toJson(SampleRuns.finished())
                .replaceFirst("(\"case\" : \"" + MISSING + "\",\\s*\"verdict\" : )\"NOT_APPLICABLE\"", "$1\"PASS\"");
        assertThat(json).isNotEqualTo(JsonReport.toJson(SampleRuns.finished()));

        assertThat(shared.checkReportJson("report.json", json))
                .anySatisfy(p -> assertThat(p).contains("/notExercised/0/verdict"));
    }

    @Test
    void shouldMarkThePartialClauseInTheHtmlPage() {
        final String html = HtmlReport.toHtml(SampleRuns.finished());

        assertThat(html)
                .containsPattern("<tr class=\"clause\" id=\"clause-4\\.1\\.6\" data-verdict=\"PASS\"[^>]*partial[^>]*>")
                .contains("<span class=\"badge v-PASS\">PASS</span> <span class=\"partial\">(partial)</span>")
                .contains("partly exercised: 1 test purpose(s) not exercised")
                .contains(
                        "<li><code>" + MISSING + "</code> <span class=\"badge v-NOT_APPLICABLE\">NOT APPLICABLE</span>")
                .contains("1 clause PASS (partial) or WARN (partial)");
        assertThat(HtmlReport.toHtml(ReportSchemasTest.allPassed()))
                .doesNotContain("(partial)")
                .doesNotContain("not-exercised");
    }

    @Test
    void shouldGiveThePartialClauseItsOwnDiagnosisAndAnInfoLogInOcptv() throws Exception {
        final List<JsonNode> steps = new ArrayList<>();
        for (final String line : OcptvReport.toJsonl(SampleRuns.finished()).split("\n")) {
            final JsonNode step = JsonReport.MAPPER.readTree(line).path("testStepArtifact");
            if (step.isObject()) {
                steps.add(step);
            }
        }
        final String id = steps.stream()
                .filter(s -> s.path("testStepStart").path("name").asText().startsWith("4.1.6 "))
                .findFirst()
                .orElseThrow()
                .path("testStepId")
                .asText();
        final List<JsonNode> mine = steps.stream()
                .filter(s -> s.path("testStepId").asText().equals(id))
                .toList();

        assertThat(mine)
                .anySatisfy(s -> {
                    assertThat(s.path("diagnosis").path("verdict").asText()).isEqualTo("metaroce-pass-partial");
                    assertThat(s.path("diagnosis").path("type").asText()).isEqualTo("PASS");
                    assertThat(s.path("diagnosis").path("message").asText())
                            .contains("PASS (partial)")
                            .contains("not exercised: " + MISSING);
                })
                .anySatisfy(s -> {
                    assertThat(s.path("log").path("severity").asText()).isEqualTo("INFO");
                    assertThat(s.path("log").path("message").asText()).contains(MISSING);
                });
        assertThat(steps)
                .filteredOn(s -> s.path("diagnosis").isObject())
                .filteredOn(s -> !s.path("testStepId").asText().equals(id))
                .noneMatch(s -> s.path("diagnosis").path("verdict").asText().endsWith("-partial"));
        assertThat(shared.checkOcptv("ocptv.jsonl", OcptvReport.toJsonl(SampleRuns.finished())))
                .isEmpty();
        assertThat(shared.checkJunitXml("junit.xml", JunitXmlReport.toXml(SampleRuns.finished())))
                .isEmpty();
    }
}

package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.verdict.RunRecord;

/**
 * Every format of every sample run is valid against its schema as published (the shared copies of the OCPTV 2.0
 * output schema and Surefire's XSD, and the suite's report schema), and the checks do catch invalid files.
 */
class ReportSchemasTest {
    private static ReportSchemas shared;

    @BeforeAll
    static void loadSchemas() throws Exception {
        shared = SharedFiles.schemas();
    }

    static Stream<RunRecord> samples() {
        return Stream.of(
                SampleRuns.finished(),
                SampleRuns.running(),
                SampleRuns.interrupted(),
                allPassed(),
                empty(),
                SampleRuns.withVector(),
                SampleRuns.withNumbers());
    }

    @ParameterizedTest
    @MethodSource("samples")
    void shouldWriteReportJsonValidAgainstItsSchema(final RunRecord record) {
        assertThat(shared.checkReportJson("report.json", JsonReport.toJson(record)))
                .isEmpty();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void shouldWriteOcptvValidAgainstTheOcpSchema(final RunRecord record) {
        assertThat(shared.checkOcptv("ocptv.jsonl", OcptvReport.toJsonl(record)))
                .isEmpty();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void shouldWriteJunitXmlValidAgainstTheSurefireXsd(final RunRecord record) {
        assertThat(shared.checkJunitXml("junit.xml", JunitXmlReport.toXml(record)))
                .isEmpty();
    }

    @Test
    void shouldBundleUnchangedCopiesOfTheSharedSchemas() throws Exception {
        final List<Path> ocptv;
        try (var files = Files.list(SharedFiles.ocptvSchemas())) {
            ocptv = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(ocptv).hasSizeGreaterThan(10);
        final List<String> index = List.of(resource("/schemas/ocptv/index.txt").split("\n"));
        assertThat(index)
                .containsExactlyElementsOf(
                        ocptv.stream().map(p -> p.getFileName().toString()).toList());
        for (final Path file : ocptv) {
            assertThat(resource("/schemas/ocptv/" + file.getFileName()))
                    .as("bundled copy of %s", file)
                    .isEqualTo(Files.readString(file));
        }
        assertThat(resource("/schemas/junit/surefire-test-report.xsd"))
                .isEqualTo(Files.readString(SharedFiles.junitXsd()));
    }

    @Test
    void shouldAcceptTheSameFilesWithTheBundledSchemas() {
        final ReportSchemas bundled = ReportSchemas.bundled();
        final RunRecord record = SampleRuns.finished();
        assertThat(bundled.checkReportJson("report.json", JsonReport.toJson(record)))
                .isEmpty();
        assertThat(bundled.checkOcptv("ocptv.jsonl", OcptvReport.toJsonl(record)))
                .isEmpty();
        assertThat(bundled.checkJunitXml("junit.xml", JunitXmlReport.toXml(record)))
                .isEmpty();
    }

    @Test
    void shouldCarryEachVectorsHashesAndRefuseAMalformedOne() {
        final String json = JsonReport.toJson(SampleRuns.withVector());
        assertThat(json)
                .contains("\"id\" : \"6.5.1/duplicate-write\"")
                .contains("\"6.5.1/duplicate-write/vector.json\" : \"" + "cd".repeat(32) + "\"");
        assertThat(shared.checkReportJson("report.json", json.replace("cd".repeat(32), "not-a-hash")))
                .isNotEmpty();
        assertThat(shared.checkReportJson(
                        "report.json", json.replace("6.5.1/duplicate-write/vector.json", "/etc/passwd")))
                .isNotEmpty();
    }

    @Test
    void shouldNameTheFieldOfAnInvalidReportJson() {
        final String json = JsonReport.toJson(SampleRuns.finished())
                .replaceFirst("\"verdict\" : \"WARN\"", "\"verdict\" : \"MAYBE\"")
                .replaceFirst("\"formatVersion\" : \"" + JsonReport.FORMAT_VERSION + "\",", "");

        final List<String> problems = shared.checkReportJson("report.json", json);

        assertThat(problems)
                .anySatisfy(p -> assertThat(p).startsWith("report.json: ").contains("/clauses/0/verdict"));
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("formatVersion"));
    }

    @Test
    void shouldSayWhenReportJsonIsNotJson() {
        assertThat(shared.checkReportJson("report.json", "{\"format\": "))
                .singleElement()
                .asString()
                .startsWith("report.json: not JSON");
    }

    @Test
    void shouldNameTheLineOfAnInvalidOcptvArtifact() {
        final String jsonl = OcptvReport.toJsonl(SampleRuns.finished())
                .replace("\"testRunEnd\":{\"status\":\"ERROR\"", "\"testRunEnd\":{\"status\":\"DONE\"");
        final int lines = (int) jsonl.lines().count();

        assertThat(shared.checkOcptv("ocptv.jsonl", jsonl))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).startsWith("ocptv.jsonl:" + lines + ": "));
    }

    @Test
    void shouldRejectAnEmptyOcptvStream() {
        assertThat(shared.checkOcptv("ocptv.jsonl", "")).isNotEmpty();
    }

    @Test
    void shouldNameTheLineOfAnInvalidJunitXml() {
        final String xml = JunitXmlReport.toXml(SampleRuns.finished()).replaceFirst(" tests=\"8\"", "");

        assertThat(shared.checkJunitXml("junit.xml", xml))
                .singleElement()
                .asString()
                .startsWith("junit.xml:2:")
                .contains("tests");
    }

    /** Every clause passed. */
    static RunRecord allPassed() {
        final RunRecord r = SampleRuns.finished();
        return SampleRuns.withCases(r, List.of(r.cases().get(0)));
    }

    /** A run that produced no case at all. */
    static RunRecord empty() {
        return SampleRuns.withCases(SampleRuns.finished(), List.of());
    }

    private static String resource(final String name) throws Exception {
        try (var in = ReportSchemasTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}

package org.mrconf.authoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.mrconf.replay.TestVector;

/**
 * The build's check of every committed sidecar against the published JSON Schema (networknt's validator, as
 * {@code vectors verify} uses it): it fails naming the file and the field. The corpus is found by walking up from the
 * module folder, so the test does not depend on where Maven runs it from.
 */
class SidecarSchemaTest {
    private static final String SAMPLE = "6.5.1/duplicate-write";

    private static Path corpus;
    private static SidecarSchema schema;

    @TempDir
    Path dir;

    @BeforeAll
    static void findTheCorpus() {
        corpus = nearestCorpus(Path.of("").toAbsolutePath());
        schema = SidecarSchema.bundled();
    }

    @Test
    void shouldAcceptEveryCommittedSidecar() throws Exception {
        final List<Path> sidecars;
        try (Stream<Path> files = Files.walk(corpus)) {
            sidecars = files.filter(p -> p.getFileName().toString().equals(TestVector.SIDECAR))
                    .sorted()
                    .toList();
        }
        assertThat(sidecars).as("sidecars under %s", corpus).hasSizeGreaterThanOrEqualTo(36);
        final List<String> problems = new ArrayList<>();
        sidecars.forEach(sidecar -> problems.addAll(schema.check(sidecar)));
        assertThat(problems)
                .as("sidecars that break %s", SidecarSchema.RESOURCE)
                .isEmpty();
    }

    @Test
    void shouldBundleTheCommittedSchema() throws Exception {
        try (var in = SidecarSchema.class.getResourceAsStream(SidecarSchema.RESOURCE)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(Files.readString(corpus.resolve("schema/vector-1.schema.json")));
        }
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "\"paths\" : 1|\"paths\" : \"one\"|$.setup.paths",
                "\"kind\" : \"inopportune\"|\"kind\" : \"sideways\"|$.kind",
                "\"pacing\"|\"pacnig\"|$",
                "\"delta\" : 1|\"delta\" : 1.5|$.expect.counters[0].delta",
                "\"opcode\" : \"ACK\"|\"opcode\" : 7|$.expect.responses[0].opcode",
            })
    void shouldNameTheFileAndTheFieldOfABrokenSidecar(final String from, final String to, final String field)
            throws Exception {
        final Path sidecar = dir.resolve(TestVector.SIDECAR);
        final String text = Files.readString(corpus.resolve(SAMPLE).resolve(TestVector.SIDECAR));
        assertThat(text).contains(from);
        Files.writeString(sidecar, text.replace(from, to));

        assertThat(schema.check(sidecar))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).startsWith(sidecar + ": "))
                .anySatisfy(p -> assertThat(p).startsWith(sidecar + ": " + field + ": "));
    }

    @Test
    void shouldSayASidecarIsNotJson() throws Exception {
        final Path sidecar = dir.resolve(TestVector.SIDECAR);
        Files.writeString(sidecar, "{\"id\": ");
        assertThat(schema.check(sidecar)).singleElement().asString().startsWith(sidecar + ": is not valid JSON");
    }

    /** The nearest {@code test-vectors} folder here or above: the build runs tests from the module folder. */
    static Path nearestCorpus(final Path start) {
        for (Path folder = start; folder != null; folder = folder.getParent()) {
            if (Files.isDirectory(folder.resolve("test-vectors").resolve("schema"))) {
                return folder.resolve("test-vectors");
            }
        }
        throw new IllegalStateException("no test-vectors/ folder in " + start + " or above");
    }
}

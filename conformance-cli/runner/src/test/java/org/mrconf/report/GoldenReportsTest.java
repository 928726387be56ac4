package org.mrconf.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.mrconf.verdict.RunRecord;

/**
 * Each report format of the fixed sample runs matches its committed golden file line by line, so a change of
 * format shows in review. The writers read no clock and no host state, and the samples fix every timestamp and id,
 * so nothing needs masking. Regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class GoldenReportsTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "report-golden");

    static Stream<Arguments> artifacts() {
        final List<Object[]> runs = List.of(
                new Object[] {"finished", SampleRuns.finished()},
                new Object[] {"running", SampleRuns.running()},
                new Object[] {"interrupted", SampleRuns.interrupted()});
        final List<Object[]> formats = List.of(
                new Object[] {"report.json", (Function<RunRecord, String>) JsonReport::toJson},
                new Object[] {"junit.xml", (Function<RunRecord, String>) JunitXmlReport::toXml},
                new Object[] {"ocptv.jsonl", (Function<RunRecord, String>) OcptvReport::toJsonl},
                new Object[] {"report.html", (Function<RunRecord, String>) HtmlReport::toHtml});
        return runs.stream().flatMap(r -> formats.stream().map(f -> Arguments.of(r[0] + "." + f[0], r[1], f[1])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("artifacts")
    void shouldMatchTheGoldenFile(final String name, final RunRecord record, final Function<RunRecord, String> writer)
            throws IOException {
        final String actual = writer.apply(record);
        final Path golden = GOLDEN.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(golden)
                .as("golden file; create it with -Dgolden.update=true")
                .exists();
        final List<String> expected = Files.readAllLines(golden, StandardCharsets.UTF_8);
        final List<String> lines = actual.lines().toList();
        for (int i = 0; i < Math.min(expected.size(), lines.size()); i++) {
            assertThat(lines.get(i))
                    .as("%s line %d (regenerate with -Dgolden.update=true and review the diff)", golden, i + 1)
                    .isEqualTo(expected.get(i));
        }
        assertThat(lines).as("%s line count", golden).hasSameSizeAs(expected);
    }
}

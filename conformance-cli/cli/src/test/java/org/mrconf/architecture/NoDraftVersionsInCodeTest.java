package org.mrconf.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: main code names the clause, never a draft version, in its comments. "Open Draft 0.12" goes stale with the
 * next version; a clause id is never renumbered or reused, so it stays true. The spec's version is stated in one place
 * in code (the catalogue and the report headers read it from the draft), not in comments.
 */
class NoDraftVersionsInCodeTest {
    private static final Pattern VERSION = Pattern.compile("Open Draft 0\\.\\d+");

    @Test
    void mainCodeCommentsNameClausesNotDraftVersions() throws IOException {
        final Path root = projectRoot();
        final List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path file : files.filter(p -> p.toString().endsWith(".java")
                            && p.toString().contains("/src/main/java/")
                            && !p.toString().contains("/target/"))
                    .toList()) {
                final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    final String line = lines.get(i).strip();
                    final boolean comment = line.startsWith("*") || line.startsWith("//") || line.startsWith("/*");
                    if (comment && VERSION.matcher(line).find()) {
                        found.add(root.relativize(file) + ":" + (i + 1) + ": " + line);
                    }
                }
            }
        }
        assertThat(found)
                .as("comments naming a draft version instead of a clause")
                .isEmpty();
    }

    private static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("spec"))) {
            dir = dir.getParent();
        }
        assertThat(dir)
                .as("the project root above %s", Path.of("").toAbsolutePath())
                .isNotNull();
        return dir;
    }
}

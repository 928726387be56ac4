package org.mrconf.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: the "Caught by" links of the defect catalogue's Javadoc cannot drift. Every {@code Case} or
 * {@code Case.method} a defect's Javadoc says catches it names a case class of the suite and, where a method is named, a
 * test method of that class (the self-test proves the catching itself; this keeps the pointer a reader follows true).
 */
class CaughtByLinksTest {
    private static final Pattern CAUGHT_BY = Pattern.compile("Caught by\\s+(.{0,400}?)(?:\\.\\s|\\*/|$)");
    private static final Pattern CODE = Pattern.compile("\\{@code\\s+([A-Z][A-Za-z0-9]*)(?:\\.([A-Za-z0-9*]+))?");

    @Test
    void everyCaughtByLinkNamesACaseAndItsMethod() throws IOException {
        final Path root = projectRoot();
        final Map<String, String> cases = new HashMap<>();
        try (Stream<Path> files = Files.walk(root.resolve("spec-cases/src/main/java/org/mrconf/cases"))) {
            for (final Path file :
                    files.filter(p -> p.toString().endsWith(".java")).toList()) {
                final String name = file.getFileName().toString().replace(".java", "");
                cases.put(name, Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        final String catalogue = Files.readString(
                        root.resolve("reference-impl/src/main/java/org/mrconf/defect/Defect.java"),
                        StandardCharsets.UTF_8)
                .replaceAll("\\n\\s*\\*\\s?", " ");
        final List<String> broken = new ArrayList<>();
        int links = 0;
        final Matcher caught = CAUGHT_BY.matcher(catalogue);
        while (caught.find()) {
            final Matcher code = CODE.matcher(caught.group(1));
            while (code.find()) {
                final String type = code.group(1);
                if (!type.endsWith("Case")) {
                    continue; // a vector, analyze or another named thing, not a case class
                }
                links++;
                final String source = cases.get(type);
                if (source == null) {
                    broken.add(type + " (no such case class)");
                    continue;
                }
                final String method = code.group(2);
                if (method != null
                        && !method.contains("*")
                        && !Pattern.compile("void\\s+" + Pattern.quote(method) + "\\s*\\(")
                                .matcher(source)
                                .find()) {
                    broken.add(type + "." + method + " (no such method)");
                }
            }
        }
        assertThat(links).as("case links found in the defect catalogue").isGreaterThan(50);
        assertThat(broken).as("'Caught by' links that name no case or method").isEmpty();
    }

    private static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("spec"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the project root").isNotNull();
        return dir;
    }
}

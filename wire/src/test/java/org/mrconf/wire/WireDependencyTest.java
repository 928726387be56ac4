package org.mrconf.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The codec depends on the JDK only, so both the transport and the suite can use it. */
class WireDependencyTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.]+)");

    @Test
    void shouldImportNothingButTheJdkFromMainSources() throws IOException {
        List<String> offenders = new ArrayList<>();
        int files = 0;
        try (Stream<Path> paths = Files.walk(MAIN)) {
            for (Path file : paths.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                for (String line : Files.readAllLines(file)) {
                    Matcher m = IMPORT.matcher(line);
                    // The module's own package appears only through static imports of its constants.
                    if (m.find()
                            && !m.group(1).startsWith("java.")
                            && !m.group(1).startsWith("org.mrconf.wire.")) {
                        offenders.add(file.getFileName() + ": " + line.trim());
                    }
                    if (line.contains("sun.") || line.contains("jdk.internal")) {
                        offenders.add(file.getFileName() + ": " + line.trim());
                    }
                }
            }
        }
        assertThat(files).isPositive();
        assertThat(offenders).isEmpty();
    }

    @Test
    void shouldDeclareNoDependencyInThePom() throws IOException {
        assertThat(Files.readString(Path.of("pom.xml"))).doesNotContain("<dependency>");
    }
}

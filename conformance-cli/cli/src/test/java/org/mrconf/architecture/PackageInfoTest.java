package org.mrconf.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Issue 37: every package of main code says in its package-info what it holds, so a newcomer can find their way. */
class PackageInfoTest {
    @Test
    void everyMainPackageHasAPackageInfo() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.isDirectory(root.resolve("spec"))) {
            root = root.getParent();
        }
        assertThat(root).as("the project root").isNotNull();
        final Path top = root;
        final List<String> missing;
        try (Stream<Path> dirs = Files.walk(top)) {
            missing = dirs.filter(Files::isDirectory)
                    .filter(d -> d.toString().contains("/src/main/java/")
                            && !d.toString().contains("/target/"))
                    .filter(PackageInfoTest::holdsJava)
                    .filter(d -> !Files.exists(d.resolve("package-info.java")))
                    .map(d -> top.relativize(d).toString())
                    .sorted()
                    .toList();
        }
        assertThat(missing)
                .as("packages of main code without a package-info.java")
                .isEmpty();
    }

    private static boolean holdsJava(final Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java"));
        } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

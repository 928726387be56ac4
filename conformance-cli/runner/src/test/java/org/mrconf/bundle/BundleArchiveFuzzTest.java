package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Coverage-guided fuzzing of the bundle archive reader behind {@code bundle verify} (issue 36): any bytes as a
 * {@code .tar.gz} unpack to plain files and directories inside the scratch folder, or are one
 * {@link BundleInputException} naming the archive; nothing is written outside, and no link, FIFO or device is made.
 * Seeds: a plain bundle and hostile ones (a FIFO, a device, a link, an escape, a truncated archive). Regression inputs:
 * {@code src/test/resources/org/mrconf/bundle/BundleArchiveFuzzTestInputs/}.
 */
class BundleArchiveFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void anyArchiveUnpacksInsideOrIsRefused(final byte[] bytes) throws Exception {
        final Path scratch = Files.createTempDirectory("fuzz-bundle");
        final Path archive = scratch.resolve("bundle.tar.gz");
        final Path into = Files.createDirectory(scratch.resolve("into"));
        try {
            Files.write(archive, bytes);
            try {
                assertThat(BundleArchive.unpack(archive, into)).startsWith(into).isDirectory();
            } catch (final BundleInputException e) {
                assertThat(e.getMessage()).startsWith(archive + ": ");
            }
            try (Stream<Path> made = Files.walk(scratch)) {
                assertThat(made.filter(p -> !p.equals(scratch) && !p.equals(archive)))
                        .allMatch(p -> p.startsWith(into))
                        .allMatch(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                                || Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS));
            }
        } finally {
            delete(scratch);
        }
    }

    private static void delete(final Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}

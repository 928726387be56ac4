package org.mrconf.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the vector sidecar reader (issue 36), through a file as {@code vectors verify} reads
 * one: any bytes give a sidecar or one {@link VectorException} naming the file, never another exception. Seeds:
 * committed sidecars and broken ones (a duplicate key, not UTF-8, UTF-16, cut short, empty). Regression inputs:
 * {@code src/test/resources/org/mrconf/replay/SidecarReaderFuzzTestInputs/}.
 */
class SidecarReaderFuzzTest {
    private static final SidecarReader READER = new SidecarReader();

    @FuzzTest(maxDuration = "30s")
    void anySidecarGivesAVectorOrOneNamedError(final byte[] bytes) throws Exception {
        final Path folder = Files.createTempDirectory("fuzz-sidecar");
        final Path file = folder.resolve(TestVector.SIDECAR);
        try {
            Files.write(file, bytes);
            try {
                assertThat(READER.read(file)).isNotNull();
            } catch (final VectorException e) {
                assertThat(e.getMessage()).startsWith(file + ": ").doesNotContain("\n");
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(folder);
        }
    }
}

package org.mrconf.dut;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of the device declaration loader, through the file path the CLI uses: any bytes give
 * either a profile or one {@link DeclarationException} naming the file, never another exception. Seeds are
 * the bundled profiles and a few broken ones. Regression inputs:
 * {@code src/test/resources/org/mrconf/dut/DeclarationLoaderFuzzTestInputs/}.
 */
class DeclarationLoaderFuzzTest {
    private static final DeclarationLoader LOADER = new DeclarationLoader();

    @FuzzTest(maxDuration = "30s")
    void anyFileGivesAProfileOrOneNamedError(final byte[] bytes) throws Exception {
        final Path file = Files.createTempFile("fuzz-profile", ".json");
        try {
            Files.write(file, bytes);
            try {
                assertThat(LOADER.load(file)).isNotNull();
            } catch (final DeclarationException e) {
                assertThat(e.getMessage()).startsWith(file + ": ");
                assertThat(e.field()).isNotBlank();
                assertThat(e.problem()).isNotBlank();
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}

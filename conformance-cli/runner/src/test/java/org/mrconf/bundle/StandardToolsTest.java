package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reviewer without this suite can check a bundle's integrity with standard tools: {@code sha256sum -c} reads the
 * manifest, OpenSSL verifies the signature with the PEM public key, and GNU tar lists the archive. Each test is
 * skipped, saying why, when its tool is not installed.
 */
class StandardToolsTest {
    @TempDir
    Path dir;

    @Test
    void shouldCheckWithSha256sumOpensslAndTar() throws Exception {
        final KeyPair key = SigningKeys.generate();
        SigningKeys.writePair(key, dir.resolve("vendor.key"));
        final Path run = BundleRuns.write(dir.resolve("run"), BundleRuns.clean());
        final Path archive = BundleVerifierTest.create(run, dir, "bundle", key);
        final Path bundle = BundleCreator.directoryOf(archive);

        assumeTrue(onPath("sha256sum"), "sha256sum is not installed");
        assertThat(run(bundle, "sha256sum", "--quiet", "--strict", "-c", BundleLayout.MANIFEST))
                .isZero();

        assumeTrue(onPath("openssl"), "openssl is not installed");
        final List<String> verify = List.of(
                "openssl",
                "pkeyutl",
                "-verify",
                "-pubin",
                "-inkey",
                dir.resolve("vendor.key.pub").toString(),
                "-rawin",
                "-in",
                BundleLayout.MANIFEST,
                "-sigfile",
                BundleLayout.SIGNATURE);
        assertThat(run(bundle, verify.toArray(String[]::new))).isZero();
        Files.writeString(
                bundle.resolve(BundleLayout.MANIFEST),
                "\n",
                StandardCharsets.US_ASCII,
                java.nio.file.StandardOpenOption.APPEND);
        assertThat(run(bundle, verify.toArray(String[]::new))).isNotZero();

        assumeTrue(onPath("tar"), "tar is not installed");
        assertThat(run(dir, "tar", "-tzf", archive.toString())).isZero();
    }

    private static int run(final Path workDir, final String... command) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish in 30 s");
        }
        return process.exitValue();
    }

    private static boolean onPath(final String tool) {
        for (final String directory : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, tool))) {
                return true;
            }
        }
        return false;
    }
}

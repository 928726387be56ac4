package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar the README's quick start runs ({@code ./metaroce} launches {@code target/metaroce.jar}) holds what the cases
 * need at run time. The unit tests run on Maven's test classpath, which has AssertJ and JUnit whatever the jar holds;
 * this runs the packaged jar in its own JVM, as a user does, on a few cases that assert with AssertJ.
 */
class LauncherJarIT {
    private static final Path JAR = Path.of("target", "metaroce.jar");

    @Test
    void thePackagedJarRunsCasesAgainstTheEmbeddedReference(@TempDir final Path out) throws Exception {
        assertThat(JAR).as("the shaded jar `package` builds").isRegularFile();
        final Path log = out.resolve("stdout.txt");
        final Process process = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        JAR.toString(),
                        "run",
                        "--case",
                        "IntegrityCase.*",
                        "--quiet",
                        "--out",
                        out.resolve("run").toString()))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as("the run ends").isTrue();
        final String stdout = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(stdout)
                .as("what the packaged jar printed")
                .doesNotContain("NoClassDefFoundError")
                .doesNotContain("ClassNotFoundException")
                .containsPattern("Clauses: .* 0 failed, .* 0 error");
        assertThat(process.exitValue()).as("exit code; output:%n%s", stdout).isZero();
    }
}

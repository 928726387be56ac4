package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code metaroce explore}: its wiring, its reports and its exit codes (the exploring itself: ExploreTest). */
class ExploreCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    @Test
    void shouldPrintTheProgramASeedDraws() {
        final int exit =
                execute("explore", "--program", "7", "--out", dir.resolve("p").toString());

        assertThat(exit).as("stdout: %s stderr: %s", out, err).isZero();
        assertThat(out.toString()).contains("\"seed\" : 7").contains("\"messages\"");
    }

    @Test
    void shouldExploreTheCleanReferenceBrieflyAndWriteTheFourReports() throws Exception {
        final Path folder = dir.resolve("run");
        final int exit = execute("explore", "--minutes", "0.05", "--seed", "39", "--out", folder.toString());

        assertThat(exit).as("stdout: %s stderr: %s", out, err).isZero();
        assertThat(out.toString()).contains("0 violation(s) reproduced");
        assertThat(folder.resolve("report.json")).exists();
        assertThat(folder.resolve("junit.xml")).exists();
        assertThat(folder.resolve("ocptv.jsonl")).exists();
        assertThat(Files.readString(folder.resolve("report.json"))).contains("explore[programs]");
        assertThat(execute("report", "validate", folder.toString()))
                .as("stderr: %s", err)
                .isZero();
    }

    @Test
    void shouldRefuseANonPositiveDuration() {
        assertThat(execute("explore", "--minutes", "0")).isEqualTo(2);
    }

    private int execute(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

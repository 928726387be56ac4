package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.analyze.SyntheticCapture;

class AnalyzeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    @Test
    void shouldJudgeBothEndsOfAConformantCaptureAndExitZero() throws Exception {
        final Path capture = dir.resolve("clean.pcap");
        SyntheticCapture.write(capture, 5_000, 8, 3);

        final Path reports = dir.resolve("reports");
        final int exit = execute(
                "analyze", capture.toString(), "--out", reports.toString(), "--declaration", REFERENCE_DECLARATION);

        assertThat(exit).as("stdout: %s stderr: %s", out, err).isZero();
        assertThat(out.toString())
                .contains("5000 frames")
                .contains("PASS           6.4.2   192.0.2.1")
                .contains("PASS           8.1.1   192.0.2.2")
                .contains("INCONCLUSIVE")
                .contains("0 failed");
        for (final String file : new String[] {"report.json", "report.html", "junit.xml", "ocptv.jsonl"}) {
            assertThat(reports.resolve(file)).isRegularFile();
        }
        assertThat(execute("report", "validate", reports.toString()))
                .as("stderr: %s", err)
                .isZero();
    }

    @Test
    void shouldStillTakeTheDeprecatedProfileOptionAndSaySo() throws Exception {
        final Path capture = dir.resolve("clean.pcap");
        SyntheticCapture.write(capture, 200, 2, 1);

        final int exit = execute(
                "analyze",
                capture.toString(),
                "--out",
                dir.resolve("r").toString(),
                "--profile",
                REFERENCE_DECLARATION);

        assertThat(exit).as("stdout: %s stderr: %s", out, err).isZero();
        assertThat(err.toString()).contains("--profile is deprecated").contains("--declaration");
    }

    @Test
    void shouldNameTheFileAndExitTwoWhenItIsNotACapture() throws Exception {
        final Path notACapture = Files.writeString(dir.resolve("notes.txt"), "not a capture");

        final int exit = execute("analyze", notACapture.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("notes.txt").doesNotContain("Exception\n\tat ");
    }

    @Test
    void shouldExitTwoForAMissingFile() {
        assertThat(execute("analyze", dir.resolve("absent.pcap").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("absent.pcap");
    }

    private static final String REFERENCE_DECLARATION =
            System.getProperty("mrconf.root", "../..") + "/spec-cases/src/main/resources/profiles/reference-udp.json";

    private int execute(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

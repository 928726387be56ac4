package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's surface; {@code SelfValidationTest} runs the whole catalogue. */
class SelftestCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldListTheCatalogueWithTheClausesEachDefectBreaks() {
        assertThat(run("selftest", "--list")).isZero();
        assertThat(out.toString()).containsPattern("(?m)^accept-bad-crc +breaks 5\\.6\\.2$");
    }

    @Test
    void shouldRefuseAnUnknownDefectWithExitCodeTwo() {
        assertThat(run("selftest", "--defect", "no-such-bug", "--out", dir.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("unknown defect \"no-such-bug\"").doesNotContain("\tat ");
    }

    @Test
    void shouldWriteTheMatrixForTheChosenDefects() throws Exception {
        final int exit = run("selftest", "--defect", "accept-bad-crc,crc-checked-first", "--out", dir.toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString()).contains("CAUGHT   accept-bad-crc").contains("2 of 2 defects caught");
        assertThat(Files.readString(dir.resolve("self-validation.md")))
                .contains("| `accept-bad-crc` | 5.6.2 |")
                .contains("| `crc-checked-first` | 5.6.4 | 5.6.4 | - | 0 | caught |")
                // Neither defect breaks a clause analyze judges: only the clean capture is analysed, and passes.
                .contains("## Passive analysis (`metaroce analyze`)")
                .contains("no FAIL at either end");
        assertThat(out.toString()).contains("analyze: clean capture passes");
        assertThat(Files.readString(dir.resolve("self-validation.json"))).contains("\"caught\" : true");
    }

    @Test
    void shouldListTheVariantsBesideTheDefects() {
        assertThat(run("selftest", "--list")).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^timeout-resends-oldest-only +variant: F-11 allows it \\(clause 6\\.6\\.2\\)$");
    }

    @Test
    void shouldRunTheChosenVariantAndOneSampledDeclarationSet() throws Exception {
        final int exit = run(
                "selftest",
                "--variants",
                "--variant",
                "lower-utilisation-longer-active-window",
                "--declarations",
                "1",
                "--out",
                dir.toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .contains("PASSES   lower-utilisation-longer-active-window")
                .contains("2 of 2 variants and declaration sets pass");
        assertThat(Files.readString(dir.resolve("variants.md")))
                .contains("| `lower-utilisation-longer-active-window` | F-18 | 8.2.4 |")
                .contains("| `declarations(windows ")
                .contains("--declarations 1 --seed 20261206");
    }

    @Test
    void shouldRefuseAnUnknownVariantOrANegativeSampleWithExitCodeTwo() {
        assertThat(run("selftest", "--variants", "--variant", "no-such-choice", "--out", dir.toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("unknown variant 'no-such-choice'").doesNotContain("\tat ");
        assertThat(run("selftest", "--variants", "--declarations", "-1", "--out", dir.toString()))
                .isEqualTo(2);
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

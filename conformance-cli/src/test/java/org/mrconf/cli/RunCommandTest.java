package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldPassEveryCaseAgainstTheEmbeddedReferenceAndWriteTheFourReports() throws Exception {
        final Path runDir = dir.resolve("run");

        final int exit = run("run", "--out", runDir.toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .contains("Device: embedded reference")
                .containsPattern("(?m)^PASS +7\\.4\\.1 5\\.2\\.6 +DataPathCase\\.readReturnsRegionBytes$")
                .contains("not Meta's specification")
                .contains("Reports written to " + runDir)
                .containsPattern(
                        "(?m)^Clauses: [1-9][0-9]* passed, 0 failed, 0 warned, 0 inconclusive, 0 not applicable,"
                                + " 0 error$")
                .containsPattern("(?m)^[1-9][0-9]* passed, 0 failed$");
        assertThat(runDir.resolve("report.json")).isRegularFile();
        assertThat(runDir.resolve("report.html")).isRegularFile();
        assertThat(runDir.resolve("junit.xml")).isRegularFile();
        assertThat(runDir.resolve("ocptv.jsonl")).isRegularFile();
        assertThat(Files.readString(runDir.resolve("report.json")))
                .contains("\"interrupted\"")
                .doesNotContain("\"suiteCommit\" : \"\"");
    }

    @Test
    void shouldMakeTheReadClausesNotApplicableForACoreOnlyProfile() throws Exception {
        final Path profile = dir.resolve("core-only.json");
        Files.writeString(
                profile,
                ProfileCommand.template()
                        .replace("\"profiles\": [\"core\", \"multipath\"]", "\"profiles\": [\"core\"]")
                        .replace("\"kind\": \"udp\"", "\"kind\": \"embedded\""));

        final int exit = run(
                "run", "--dut", profile.toString(), "--out", dir.resolve("run").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^NOT_APPLICABLE +7\\.4\\.1 5\\.2\\.6 +DataPathCase\\.readReturnsRegionBytes$")
                .contains("clause 7.4.1 belongs to profile 'read', which the device does not claim")
                .containsPattern("(?m)^PASS +5\\.6\\.1 5\\.6\\.2 +IntegrityCase\\.badCrcIsDroppedSilently$")
                .contains("Warning: hello claims")
                .doesNotContain("FAIL ");
    }

    @Test
    void shouldRunOnlyTheSelectedClausesAndQuietlyForCi() {
        final int exit = run(
                "run",
                "--clause",
                "6.4.*",
                "--quiet",
                "--out",
                dir.resolve("run").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .doesNotContain("PASS ")
                .contains("5 of 106 clauses exercised by 1 cases")
                .containsPattern("(?m)^1 passed, 0 failed$");
    }

    @Test
    void shouldRefuseASelectionThatMatchesNoCaseWithExitCodeTwo() {
        final int exit =
                run("run", "--case", "NoSuchCase*", "--out", dir.resolve("run").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("no conformance case matches the selection")
                .doesNotContain("\tat ");
    }

    @Test
    void shouldRefuseAnUnknownProfileOrKindWithExitCodeTwo() {
        assertThat(run("run", "--profile", "warp")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown profile 'warp'");
        assertThat(run("run", "--kind", "sideways")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown kind 'sideways'");
    }

    @Test
    void shouldRefuseAnUnreachableAgentWithExitCodeTwo() {
        final int exit = run("run", "--dut", "udp://127.0.0.1:9?control=10");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("cannot use the device's control agent")
                .doesNotContain("\tat ");
    }

    @Test
    void shouldNameTheFileAndFieldOfABadProfile() throws Exception {
        final Path profile = dir.resolve("nic.json");
        Files.writeString(profile, "{\"identity\": {}}");

        final int exit = run("run", "--dut", profile.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).startsWith("metaroce: " + profile + ": ").doesNotContain("\tat ");
    }

    @Test
    void shouldExplainThatARawInterfaceNeedsAProfile() {
        final int exit = run("run", "--dut", "iface:eth9");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("needs the DUT's and the tester's addresses: add ?dut=IP&tester=IP");
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldRunTheEmbeddedReferenceByDefaultAndWriteTheFourReports() throws Exception {
        final Path runDir = dir.resolve("run");

        // Two sections are enough for what this test checks (the console, the counts, the partly exercised clauses and
        // the four reports); that every case passes against the embedded reference is CasesAcrossDevicesTest's to show.
        final int exit = run("run", "--clause", "4.1,7.4", "--out", runDir.toString());

        // On a loaded machine a timing case may end INCONCLUSIVE (never FAIL): then a MUST clause is undecided and the
        // exit code is 1, with nothing failed.
        final boolean undecided = RunSummary.undecidedOnly(out.toString());
        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isIn(undecided ? List.of(0, 1) : List.of(0));
        assertThat(out.toString())
                .contains("Device: embedded reference")
                .containsPattern("(?m)^PASS +7\\.4\\.1 5\\.2\\.6 +DataPathCase\\.readReturnsRegionBytes$")
                .contains("not Meta's specification")
                .contains("Reports written to " + runDir)
                .containsPattern(
                        "(?m)^Clauses: [1-9][0-9]* passed, 0 failed, 0 warned, [0-9]+ inconclusive, [0-9]+ not applicable,"
                                + " 0 error$")
                .containsPattern("(?m)^[1-9][0-9]* passed, 0 failed, [0-9]+ skipped$")
                .containsPattern("(?m)^Running [1-9][0-9]* cases and the selected test vectors")
                .containsPattern("(?m)^Results: [1-9][0-9]* \\([1-9][0-9]* cases, [0-9]+ vectors?\\): [1-9][0-9]*"
                        + " passed, 0 failed, [0-9]+ warned, [0-9]+ inconclusive, [0-9]+ not applicable, 0 error$")
                .doesNotContain("Failed clauses")
                // No clause is a plain PASS that was only partly exercised: the summary names them.
                .containsPattern("(?m)^Not fully exercised: [1-9][0-9]* clauses .*; not a failure")
                .containsPattern(
                        "(?m)^  4\\.1\\.6 NOT_APPLICABLE \\(not exercised\\) \\(MUST, core\\): not exercised: ");
        assertThat(runDir.resolve("report.json")).isRegularFile();
        assertThat(runDir.resolve("report.html")).isRegularFile();
        assertThat(runDir.resolve("junit.xml")).isRegularFile();
        assertThat(runDir.resolve("ocptv.jsonl")).isRegularFile();
        assertThat(Files.readString(runDir.resolve("report.json")))
                .contains("\"interrupted\"")
                .doesNotContain("\"suiteCommit\" : \"\"");
    }

    /**
     * A device that claims fewer profiles is judged only on what it claims: against the core configuration (no read,
     * immediate or congestion) every case and vector passes or is not applicable, never FAIL or ERROR for an operation
     * it does not offer. The other configurations claim more than the standard one; selftest runs their clauses.
     */
    @Test
    void shouldPassOrNotApplyEveryCaseAgainstTheCoreConfiguration() throws Exception {
        final int exit = run(
                "run",
                "--dut",
                "reference?config=core",
                "--quiet",
                "--out",
                dir.resolve("core").toString());

        final boolean undecided = RunSummary.undecidedOnly(out.toString());
        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isIn(undecided ? List.of(0, 1) : List.of(0));
        assertThat(out.toString())
                .containsPattern(
                        "(?m)^Clauses: [1-9][0-9]* passed, 0 failed, 0 warned, [0-9]+ inconclusive, [1-9][0-9]*"
                                + " not applicable, 0 error$")
                .containsPattern("(?m)^[1-9][0-9]* passed, 0 failed, [1-9][0-9]* skipped$");
    }

    @Test
    void shouldSayInTheReportWhenTheVectorsRanOnASecondInstance() throws Exception {
        final Path twoLanes = dir.resolve("two-lanes");
        final Path oneLane = dir.resolve("one-lane");

        assertThat(run("run", "--case", "IntegrityCase.*", "--quiet", "--out", twoLanes.toString()))
                .as("stdout:%n%s%nstderr:%n%s", out, err)
                .isZero();
        assertThat(run("run", "--jobs", "1", "--case", "IntegrityCase.*", "--quiet", "--out", oneLane.toString()))
                .as("stdout:%n%s%nstderr:%n%s", out, err)
                .isZero();

        assertThat(Files.readString(twoLanes.resolve("report.json")))
                .contains("\"" + RunCommand.LANES_PARAMETER + "\" : \"2: the test vectors ran on a second instance");
        assertThat(Files.readString(oneLane.resolve("report.json")))
                .doesNotContain("\"" + RunCommand.LANES_PARAMETER + "\"");
        assertThat(run("run", "--jobs", "3", "--out", dir.resolve("three").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--jobs must be 1 or 2, found 3");
    }

    @Test
    void shouldMakeTheReadClausesNotApplicableForACoreOnlyProfile() throws Exception {
        final Path profile = dir.resolve("core-only.json");
        Files.writeString(
                profile,
                DeclarationCommand.template()
                        .replace("\"profiles\": [\"core\", \"multipath\"]", "\"profiles\": [\"core\"]")
                        .replace("\"kind\": \"udp\"", "\"kind\": \"embedded\""));

        // The sections where a claim of core alone changes verdicts; the whole suite against a core device is
        // shouldPassOrNotApplyEveryCaseAgainstTheCoreConfiguration.
        final int exit = run(
                "run",
                "--dut",
                profile.toString(),
                "--clause",
                "5.6,7.4,8.2,10.1,12.1",
                "--out",
                dir.resolve("run").toString());

        // The template's identity and core-only claim contradict what the embedded reference says in hello, which
        // the declaration clauses (12.1.x) report as FAIL; and a device that claims only core must not offer READ,
        // immediate data or congestion signals (5.6.7, 8.2.6), nor grow its windows past the declared first ones
        // (10.1.6), which the standard reference does. Nothing else of these sections may fail.
        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isEqualTo(1);
        assertThat(out.toString())
                .containsPattern("(?m)^NOT_APPLICABLE +7\\.4\\.1 5\\.2\\.6 +DataPathCase\\.readReturnsRegionBytes$")
                .contains("clause 7.4.1 belongs to profile 'read', which the device does not claim")
                .containsPattern("(?m)^PASS +5\\.6\\.1 5\\.6\\.2 +IntegrityCase\\.badCrcIsDroppedSilently$")
                .contains("Warning: hello claims");
        assertThat(out.toString().lines().filter(line -> line.startsWith("FAIL ")))
                .as("only the declaration clauses and those of a device that claims less fail")
                .isNotEmpty()
                .allMatch(line -> line.matches("FAIL +(12\\.1\\.[0-9]+|5\\.6\\.7|8\\.2\\.6|10\\.1\\.6) .*"));
    }

    /**
     * A clause that applies but whose cases the link cannot carry is named on the console with what would exercise
     * it, and is no failure: the in-memory link builds no frames with chosen UDP checksums (4.1.6).
     */
    @Test
    void shouldNameTheClausesNotFullyExercisedAndStillExitZero() {
        final int exit = run(
                "run",
                "--clause",
                "4.1.6",
                "--quiet",
                "--out",
                dir.resolve("run").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .containsPattern("(?m)^Not fully exercised: 1 clauses \\(0 PASS or WARN \\(partial\\), 1 NOT_APPLICABLE"
                        + " \\(not exercised\\)\\); not a failure")
                .containsPattern(
                        "(?m)^  4\\.1\\.6 NOT_APPLICABLE \\(not exercised\\) \\(MUST, core\\): not exercised:"
                                + " UdpChecksumCase\\.[a-zA-Z0-9]+ \\(NOT_APPLICABLE: the wire link cannot carry this case: .*");
    }

    @Test
    void shouldRunOnlyTheSelectedClausesAndQuietlyForCi() {
        final int exit = run(
                "run",
                "--clause",
                // The CRC cases: no timer of the DUT's decides them, so an INCONCLUSIVE on a slow machine cannot turn
                // this test's exit code (the 6.4 cases it used to select may be, when the DUT's timer fires first).
                "5.6.1",
                "--quiet",
                "--out",
                dir.resolve("run").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .doesNotContain("PASS ")
                .contains("Results: 2 (2 cases, 0 vectors): 2 passed, 0 failed, 0 warned, 0 inconclusive, 0 not"
                        + " applicable, 0 error")
                .contains("2 of 129 clauses exercised by the 2 cases and 0 vectors")
                .containsPattern("(?m)^2 passed, 0 failed, 0 skipped$");
    }

    /**
     * A failing run counts every result once in one line, and lists its failed clauses at the end, each with the
     * cases that failed it and the first line of their reason: the closing lines add up to the results line.
     */
    @Test
    void shouldListTheFailedClausesAtTheEndWithTheirCases() {
        final int exit = run(
                "run",
                "--dut",
                "reference?defect=accept-bad-crc",
                "--case",
                "IntegrityCase.badCrc*",
                "--quiet",
                "--out",
                dir.resolve("run").toString());

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isEqualTo(1);
        final String stdout = out.toString();
        assertThat(stdout)
                .containsPattern(
                        "(?m)^Results: ([1-9][0-9]*) \\(\\1 cases?, 0 vectors\\): 0 passed, \\1 failed, 0 warned,"
                                + " 0 inconclusive, 0 not applicable, 0 error$")
                .containsPattern("(?m)^0 passed, [1-9][0-9]* failed, 0 skipped$")
                .containsPattern(
                        "(?m)^Failed clauses: 2\n  5\\.6\\.1 \\(MUST, core\\)\n    IntegrityCase\\.badCrcIsDroppedSilently:"
                                + " expected no packet matching .*\n  5\\.6\\.2 \\(MUST, core\\)\n    IntegrityCase\\.badCrc");
        assertThat(stdout.indexOf("Failed clauses")).isGreaterThan(stdout.indexOf("Clauses: "));
        assertThat(stdout).doesNotContain("Inconclusive clauses");
        assertThat(RunCommand.reasonLine(
                        "vector 3.1.2/loss-on-one-path-leaves-the-other (clauses 3.1.2):\n  expected at"
                                + " least 1 ACK\n  more"))
                .isEqualTo("expected at least 1 ACK");
        assertThat(RunCommand.reasonLine("[5.6.2: dropped] \nExpecting")).isEqualTo("[5.6.2: dropped]");
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
    void shouldRefuseAnUnknownDefectListingTheKnownOnes() {
        final int exit = run("run", "--dut", "reference?defect=accept-bad-crc,no-such-bug");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .contains("unknown defect \"no-such-bug\"")
                .contains("strict-minor-version")
                .doesNotContain("\tat ");
    }

    @Test
    void shouldSayThatTheDeviceCommitsDefectsAndFailTheirClauses() throws Exception {
        final Path runDir = dir.resolve("defect");
        final int exit =
                run("run", "--dut", "reference?defect=accept-bad-crc", "--clause", "5.6.2", "--out", runDir.toString());

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString())
                .contains("Device: embedded reference with defects accept-bad-crc")
                .contains("DELIBERATE DEFECTS (hello): [accept-bad-crc]")
                .containsPattern("(?m)^FAIL +5\\.6\\.1 5\\.6\\.2 ");
        assertThat(Files.readString(runDir.resolve("report.json")))
                .contains("accept-bad-crc")
                // The command line as typed, the subcommand named once.
                .contains(
                        "\"commandLine\" : \"metaroce run --dut reference?defect=accept-bad-crc --clause 5.6.2 --out ");
    }

    @Test
    void shouldExplainThatARawInterfaceNeedsAProfile() {
        final int exit = run("run", "--dut", "iface:eth9");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("needs the DUT's and the tester's addresses: add ?dut=IP&tester=IP");
    }

    @Test
    void shouldRefuseABlankTarget() {
        final int exit = run("run", "--dut", "   ");

        assertThat(exit).isEqualTo(2);
        assertOneLine("--dut: (target): is blank; leave --dut out to test the embedded"
                + " reference, or give udp://HOST:PORT, iface:NAME or a declaration file");
    }

    @Test
    void shouldRefuseAnUnknownScheme() {
        final int exit = run("run", "--dut", "garbage://x");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString())
                .startsWith("metaroce: --dut: (target): unknown scheme 'garbage'")
                .doesNotContain("garbage:/x");
    }

    @Test
    void shouldRefuseAFifoWithoutWaitingForAWriter() throws Exception {
        final Path fifo = dir.resolve("profile.fifo");
        final Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available");

        final int exit = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run("run", "--dut", fifo.toString()));

        assertThat(exit).isEqualTo(2);
        assertOneLine(fifo + ": (file): is not a regular file (a directory, FIFO or device); give a JSON file");
    }

    @Test
    void shouldRefuseADeviceFileWithoutReadingIt() {
        final Path zero = Path.of("/dev/zero");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero here");

        final int exit = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> run("run", "--dut", zero.toString()));

        assertThat(exit).isEqualTo(2);
        assertOneLine(zero + ": (file): is not a regular file (a directory, FIFO or device); give a JSON file");
    }

    @Test
    void shouldNameTheFileOfAProfileThatIsNotUtf8() throws Exception {
        final Path binary = Files.write(dir.resolve("binary.json"), new byte[] {'{', (byte) 0xFF, (byte) 0xFE, '}'});
        final Path utf16 = Files.write(
                dir.resolve("utf16.json"), "{\"identity\": {}}".getBytes(java.nio.charset.StandardCharsets.UTF_16));

        assertThat(run("run", "--dut", binary.toString())).isEqualTo(2);
        assertOneLine(binary + ": (file): is not UTF-8 text: byte 0xff at offset 1");
        err.getBuffer().setLength(0);
        assertThat(run("run", "--dut", utf16.toString())).isEqualTo(2);
        assertOneLine(utf16 + ": (file): is UTF-16 text; a profile must be UTF-8");
    }

    @Test
    void shouldRefuseAProfileOverTheSizeLimit() throws Exception {
        final Path huge = dir.resolve("huge.json");
        Files.write(huge, new byte[(int) org.mrconf.dut.DeclarationLoader.MAX_FILE_BYTES + 1]);

        assertThat(run("run", "--dut", huge.toString())).isEqualTo(2);
        assertOneLine(huge + ": (file): is larger than the 1048576 bytes a profile may have");
    }

    /** One message line (and the CLI's hint about --verbose), no stack trace. */
    private void assertOneLine(final String message) {
        assertThat(err.toString())
                .startsWith("metaroce: " + message + System.lineSeparator())
                .doesNotContain("\tat ", "Exception", "Error:");
        assertThat(err.toString().lines()).hasSizeLessThanOrEqualTo(2);
    }

    private int run(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

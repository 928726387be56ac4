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
    void shouldPassEveryCaseAgainstTheEmbeddedReference() {
        final int exit = run("run");

        assertThat(exit).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(out.toString())
                .contains("Device: embedded reference")
                .contains("PASS    7.4.1 5.2.6")
                .contains("not Meta's specification")
                .containsPattern("(?m)^[1-9][0-9]* passed, 0 failed, 0 skipped$");
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
    void shouldSayThatTheDeviceCommitsDefectsAndFailTheirClauses() {
        final int exit = run("run", "--dut", "reference?defect=accept-bad-crc");

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString())
                .contains("Device: embedded reference with defects accept-bad-crc")
                .contains("DELIBERATE DEFECTS (hello): [accept-bad-crc]")
                .containsPattern("(?m)^FAIL +5\\.6\\.1 5\\.6\\.2 ");
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

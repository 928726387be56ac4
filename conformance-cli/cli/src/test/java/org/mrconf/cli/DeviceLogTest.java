package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The device's own log lines go to {@code device.log} in the run folder, not among the verdicts (issue 35), and
 * with {@code --verbose} to standard error too.
 */
class DeviceLogTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream saved;

    @BeforeEach
    void captureStandardError() {
        saved = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStandardError() {
        System.setErr(saved);
    }

    @Test
    void aLogLineGoesToTheFileNotTheConsole() throws Exception {
        final Path file = dir.resolve("run").resolve(DeviceLog.FILE_NAME);
        try (DeviceLog log = DeviceLog.capture(file, false)) {
            assertThat(log.written()).isFalse();
            LoggerFactory.getLogger("org.mrconf.agent.ControlAgent").warn("connection 65537 failed");
            assertThat(log.written()).isTrue();
        }
        assertThat(Files.readString(file)).contains("WARN org.mrconf.agent.ControlAgent - connection 65537 failed");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).doesNotContain("connection 65537 failed");

        System.err.println("after the run");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("after the run");
        assertThat(Files.readString(file)).doesNotContain("after the run");
    }

    @Test
    void withVerboseTheLineIsShownToo() throws Exception {
        final Path file = dir.resolve(DeviceLog.FILE_NAME);
        try (DeviceLog log = DeviceLog.capture(file, true)) {
            LoggerFactory.getLogger("org.mrconf.agent.ControlAgent").warn("connection 65538 failed");
        }
        assertThat(Files.readString(file)).contains("connection 65538 failed");
        assertThat(stderr.toString(StandardCharsets.UTF_8)).contains("connection 65538 failed");
    }

    @Test
    void aQuietRunLeavesNoFile() {
        final Path file = dir.resolve(DeviceLog.FILE_NAME);
        try (DeviceLog log = DeviceLog.capture(file, false)) {
            assertThat(log.written()).isFalse();
        }
        assertThat(file).doesNotExist();
    }

    @Test
    @Timeout(120)
    void aRunWhoseDeviceLogsKeepsItsLinesOffTheConsole() throws Exception {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final Path run = dir.resolve("run");
        final int exit = MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("run", "--case", "UnknownConnectionNackCase*", "--jobs", "1", "--out", run.toString());

        assertThat(exit).as("%s%s", out, err).isZero();
        final String console = out + "\n" + err + "\n" + stderr.toString(StandardCharsets.UTF_8);
        assertThat(console).doesNotContain("WARN org.mrconf");
        final Path log = run.resolve(DeviceLog.FILE_NAME);
        if (Files.exists(log)) {
            assertThat(out.toString()).contains("Device log: " + log);
        } else {
            assertThat(out.toString()).doesNotContain("Device log:");
        }
    }
}

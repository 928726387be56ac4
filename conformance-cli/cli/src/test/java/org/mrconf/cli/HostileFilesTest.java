package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.replay.TestVector;

/**
 * Issue 36: every command meets a FIFO, {@code /dev/zero}, a link out of its folder, a non-UTF-8 file and an
 * impossible path with one line naming the file and exit 2, within seconds, never a hang, an OutOfMemoryError or a
 * stack trace. Each test failed before the fix (a hang shows as the 20 s timeout).
 */
class HostileFilesTest {
    private static final Duration PROMPTLY = Duration.ofSeconds(20);
    private static final Path COMMITTED = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");
    private static final Path ZERO = Path.of("/dev/zero");

    private StringWriter out;
    private StringWriter err;

    @TempDir
    Path dir;

    @BeforeEach
    void writers() {
        out = new StringWriter();
        err = new StringWriter();
    }

    // ---- finding 1: /dev/zero and FIFOs, read with no limit or type check --------------------------------------

    @Test
    void bundleVerifyRefusesAPubkeyThatIsDevZero() throws Exception {
        assumeDevZero();
        assertThat(promptly("bundle", "verify", dir.toString(), "--pubkey", ZERO.toString()))
                .isEqualTo(2);
        assertOneLine(ZERO + ": is not a regular file (a directory, FIFO or device) (expected a PEM key file)");
    }

    @Test
    void bundleVerifyRefusesAPubkeyThatIsAFifo() throws Exception {
        final Path fifo = fifo("vendor.key.pub");
        assertThat(promptly("bundle", "verify", dir.toString(), "--pubkey", fifo.toString()))
                .isEqualTo(2);
        assertOneLine(fifo + ": is not a regular file (a directory, FIFO or device) (expected a PEM key file)");
    }

    @Test
    void bundleCreateRefusesAKeyThatIsDevZero() throws Exception {
        assumeDevZero();
        assertThat(promptly("bundle", "create", dir.toString(), "--key", ZERO.toString()))
                .isEqualTo(2);
        assertOneLine(ZERO + ": is not a regular file (a directory, FIFO or device) (expected a PEM key file)");
    }

    @Test
    void vectorsVerifyRefusesASidecarThatLinksToDevZero() throws Exception {
        assumeDevZero();
        final Path root = dir.resolve("vectors");
        final Path sidecar = Files.createDirectories(root.resolve("7.1.1/zero")).resolve(TestVector.SIDECAR);
        Files.createSymbolicLink(sidecar, ZERO);

        assertThat(promptly("vectors", "verify", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString())
                .contains(sidecar + ": is not a regular file")
                .doesNotContain("OutOfMemoryError", "\tat ");
    }

    @Test
    void vectorsVerifyRefusesASidecarThatIsAFifo() throws Exception {
        final Path root = dir.resolve("vectors");
        Files.createDirectories(root.resolve("7.1.1/fifo"));
        final Path sidecar = fifo("vectors/7.1.1/fifo/" + TestVector.SIDECAR);

        assertThat(promptly("vectors", "verify", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(sidecar + ": is not a regular file").doesNotContain("\tat ");
    }

    @Test
    void reportCommandsRefuseAReportJsonThatIsAFifo() throws Exception {
        final Path run = Files.createDirectories(dir.resolve("run"));
        final Path reportJson = fifo("run/report.json");
        for (final String command : new String[] {"show", "html", "validate"}) {
            writers();
            assertThat(promptly("report", command, run.toString()))
                    .as("report %s", command)
                    .isEqualTo(2);
            assertThat(err.toString())
                    .as("report %s", command)
                    .isEqualTo("metaroce: " + reportJson + ": is not a regular file (a directory, FIFO or device)"
                            + System.lineSeparator());
        }
    }

    @Test
    void reportCommandsRefuseAReportJsonThatLinksToDevZero() throws Exception {
        assumeDevZero();
        final Path run = Files.createDirectories(dir.resolve("run"));
        final Path reportJson = Files.createSymbolicLink(run.resolve("report.json"), ZERO);
        for (final String command : new String[] {"show", "html", "validate"}) {
            writers();
            assertThat(promptly("report", command, run.toString()))
                    .as("report %s", command)
                    .isEqualTo(2);
            assertThat(err.toString())
                    .as("report %s", command)
                    .isEqualTo("metaroce: " + reportJson + ": is a link that leads outside " + run
                            + "; the suite follows no such link" + System.lineSeparator());
        }
    }

    @Test
    void analyzeRefusesACaptureThatIsAFifo() throws Exception {
        final Path fifo = fifo("capture.pcap");

        assertThat(promptly(
                        "analyze", fifo.toString(), "--out", dir.resolve("out").toString()))
                .isEqualTo(2);
        assertOneLine(fifo + ": is not a regular file (a FIFO or device); give a pcap or pcapng capture file");
    }

    @Test
    void clausesCheckSpecRefusesAFifo() throws Exception {
        final Path fifo = fifo("draft.md");

        assertThat(promptly("clauses", "--check-spec", fifo.toString())).isEqualTo(2);
        assertOneLine(fifo + ": (file): is not a regular file (a directory, FIFO or device)");
    }

    // ---- finding 2: --update-manifest wrote through a symlinked MANIFEST.sha256 --------------------------------

    @Test
    void vectorsVerifyUpdateManifestRefusesAManifestThatIsALink() throws Exception {
        final Path root = copyOfOneVector();
        final Path outside = Files.writeString(dir.resolve("outside.txt"), "not yours\n");
        Files.delete(root.resolve("MANIFEST.sha256"));
        final Path manifest = Files.createSymbolicLink(root.resolve("MANIFEST.sha256"), outside);

        assertThat(promptly("vectors", "verify", "--root", root.toString(), "--update-manifest"))
                .isEqualTo(2);

        assertThat(Files.readString(outside)).isEqualTo("not yours\n");
        assertThat(Files.isSymbolicLink(manifest)).isTrue();
        assertOneLine(manifest + ": is a symbolic link; the suite writes nothing through a link (remove it)");
    }

    // ---- finding 3: vectors verify read on after "is not a regular file" and echoed the target -----------------

    @Test
    void vectorsVerifyStopsAtALinkedSidecarAndNeverEchoesItsTarget() throws Exception {
        final Path root = dir.resolve("vectors");
        final Path outside = Files.writeString(dir.resolve("passwd"), "SECRET-TOKEN-36:x:0:0::/root:/bin/sh\n");
        final Path sidecar = Files.createDirectories(root.resolve("7.1.1/link")).resolve(TestVector.SIDECAR);
        Files.createSymbolicLink(sidecar, outside);

        assertThat(promptly("vectors", "verify", "--root", root.toString())).isEqualTo(2);

        assertThat(err.toString()).doesNotContain("SECRET-TOKEN-36");
        assertThat(err.toString().lines().filter(line -> line.contains(sidecar.toString())))
                .containsExactly("metaroce: vectors verify: " + sidecar + ": is not a regular file");
    }

    // ---- finding 8: run --out onto a file or an impossible path ------------------------------------------------

    @Test
    void runRefusesAnOutThatIsAFile() throws Exception {
        final Path file = Files.writeString(dir.resolve("taken"), "x");

        assertThat(promptly("run", "--out", file.toString())).isEqualTo(2);
        assertOneLine(file + ": is not a folder (a file is there); give a new folder for the run folder");
    }

    @Test
    void runRefusesAnOutThatCannotBeMade() throws Exception {
        final Path file = Files.writeString(dir.resolve("taken"), "x");
        final Path impossible = file.resolve("run");

        assertThat(promptly("run", "--out", impossible.toString())).isEqualTo(2);
        assertOneLine(impossible + ": cannot be made: Not a directory");
    }

    @Test
    void analyzeRefusesAnOutThatIsAFile() throws Exception {
        final Path capture = Files.writeString(dir.resolve("any.pcap"), "never read");
        final Path file = Files.writeString(dir.resolve("taken"), "x");

        assertThat(promptly("analyze", capture.toString(), "--out", file.toString()))
                .isEqualTo(2);
        assertOneLine(file + ": is not a folder (a file is there); give a new folder for the reports");
    }

    // ---- finding 9: analyze --port range ---------------------------------------------------------------------

    @Test
    void analyzeRefusesAPortOutOfRange() throws Exception {
        final Path capture = Files.writeString(dir.resolve("any.pcap"), "never read");
        for (final String port : new String[] {"70000", "-1", "0", "65536"}) {
            writers();
            assertThat(promptly("analyze", capture.toString(), "--port", port))
                    .as("--port %s", port)
                    .isEqualTo(2);
            assertOneLine("--port: " + port + ": must be a UDP port, 1 to 65535");
        }
    }

    @Test
    void analyzeHelpShowsThatADeclarationMayNameAnEndByAddressAndPort() {
        assertThat(promptly("analyze", "--help")).isZero();
        // Picocli may wrap the option's label across lines; the words matter, not the layout.
        assertThat(out.toString().replaceAll("\\s+", "")).contains("--declaration=[IP[:PORT]=]FILE");
    }

    // ---- finding 10: vectors list accepted bad input ---------------------------------------------------------

    @Test
    void vectorsListRefusesAnUnknownKind() {
        assertThat(promptly("vectors", "list", "--root", COMMITTED.toString(), "--kind", "bogus"))
                .isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo("metaroce: vectors list: --kind: 'bogus' is not a kind; give valid, invalid or inopportune"
                        + System.lineSeparator());
    }

    @Test
    void vectorsListRefusesAnUnknownProfile() {
        assertThat(promptly("vectors", "list", "--root", COMMITTED.toString(), "--profile", "bogus"))
                .isEqualTo(2);
        assertThat(err.toString())
                .startsWith("metaroce: vectors list: --profile: 'bogus' is not a profile; give one of");
        assertThat(err.toString().lines()).hasSize(1);
    }

    @Test
    void vectorsListRefusesARootThatIsNotAFolder() {
        assumeDevZero();
        assertThat(promptly("vectors", "list", "--root", ZERO.toString())).isEqualTo(2);
        assertThat(err.toString())
                .isEqualTo("metaroce: vectors list: --root: /dev/zero is not a folder; give the vector root"
                        + System.lineSeparator());
    }

    @Test
    void vectorsListRefusesASidecarWithADuplicateKey() throws Exception {
        final Path root = copyOfOneVector();
        final Path sidecar = root.resolve("6.5.1/duplicate-write").resolve(TestVector.SIDECAR);
        final String text = Files.readString(sidecar);
        Files.writeString(sidecar, "{\n  \"kind\" : \"inopportune\"," + text.substring(text.indexOf('{') + 1));

        assertThat(promptly("vectors", "list", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString())
                .startsWith("metaroce: vectors list: " + sidecar + ": is not valid JSON: Duplicate field 'kind'");
        assertThat(err.toString().lines()).hasSize(1);
    }

    // ---- finding 11: messages and exit codes -----------------------------------------------------------------

    @Test
    void reportShowAndHtmlNameTheByteThatIsNotUtf8() throws Exception {
        final Path run = Files.createDirectories(dir.resolve("run"));
        final Path reportJson = Files.write(run.resolve("report.json"), new byte[] {'{', (byte) 0xFF, '}'});
        for (final String command : new String[] {"show", "html"}) {
            writers();
            assertThat(promptly("report", command, run.toString())).isEqualTo(2);
            assertThat(err.toString())
                    .isEqualTo("metaroce: " + reportJson + ": is not UTF-8 text: byte 0xff at offset 1"
                            + System.lineSeparator());
        }
    }

    @Test
    void reportValidateCallsAFileThatIsNotUtf8AProblemWithExitOne() throws Exception {
        final Path run = Files.createDirectories(dir.resolve("run"));
        Files.write(run.resolve("report.json"), new byte[] {'{', (byte) 0xFF, '}'});
        for (final String name : new String[] {"ocptv.jsonl", "junit.xml", "report.html"}) {
            Files.writeString(run.resolve(name), "x");
        }

        assertThat(promptly("report", "validate", run.toString())).isEqualTo(1);
        assertThat(out.toString()).contains(run + "/report.json: is not UTF-8 text: byte 0xff at offset 1");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void analyzeNamesTheLinkTypeTheFileHolds() throws Exception {
        final ByteBuffer pcap = classicHeader(101);
        pcap.putInt(0).putInt(0).putInt(20).putInt(20).put(new byte[20]);
        final Path capture = Files.write(dir.resolve("raw.pcap"), pcap.array());

        assertThat(promptly(
                        "analyze",
                        capture.toString(),
                        "--out",
                        dir.resolve("out").toString()))
                .isEqualTo(2);
        assertThat(err.toString())
                .startsWith("metaroce: " + capture + ": link type 101 is not supported; only Ethernet")
                .doesNotContain("12 (RAW)");
    }

    @Test
    void analyzePrintsACapturedLengthAsTheUnsignedNumberItIs() throws Exception {
        final ByteBuffer pcap = classicHeader(1);
        pcap.putInt(0).putInt(0).putInt(0xFFFF_FFFF).putInt(60).put(new byte[20]);
        final Path capture = Files.write(dir.resolve("damaged.pcap"), pcap.array());

        assertThat(promptly(
                        "analyze",
                        capture.toString(),
                        "--out",
                        dir.resolve("out").toString()))
                .isEqualTo(2);
        assertThat(err.toString()).contains("captured length 4294967295").doesNotContain("captured length -1");
    }

    // ---------------------------------------------------------------------------------------------------------

    /** A classic little-endian pcap header of {@code linkType}, with room for one small record after it. */
    private static ByteBuffer classicHeader(final int linkType) {
        final ByteBuffer pcap = ByteBuffer.allocate(24 + 16 + 20).order(ByteOrder.LITTLE_ENDIAN);
        pcap.putInt(0xA1B2C3D4)
                .putShort((short) 2)
                .putShort((short) 4)
                .putInt(0)
                .putInt(0)
                .putInt(65_535);
        pcap.putInt(linkType);
        return pcap;
    }

    /** A FIFO at {@code relative} under the temporary folder; the test is skipped where mkfifo is missing. */
    private Path fifo(final String relative) throws Exception {
        final Path fifo = dir.resolve(relative);
        final Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (final java.io.IOException e) {
            Assumptions.abort("no mkfifo on this OS: " + e.getMessage());
            throw e;
        }
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available");
        return fifo;
    }

    private static void assumeDevZero() {
        Assumptions.assumeTrue(Files.exists(ZERO), "no /dev/zero on this OS");
    }

    /** A vector root holding one committed vector and a manifest for it. */
    private Path copyOfOneVector() throws Exception {
        final Path root = dir.resolve("vectors");
        final Path from = COMMITTED.resolve("6.5.1/duplicate-write");
        final Path to = Files.createDirectories(root.resolve("6.5.1/duplicate-write"));
        try (Stream<Path> files = Files.list(from)) {
            for (final Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        Files.writeString(root.resolve("MANIFEST.sha256"), "", StandardCharsets.UTF_8);
        return root;
    }

    /** One message line and the CLI's hint about --verbose, no stack trace. */
    private void assertOneLine(final String message) {
        assertThat(err.toString())
                .startsWith("metaroce: " + message + System.lineSeparator())
                .doesNotContain("\tat ", "Exception", "Error:");
        assertThat(err.toString().lines()).hasSizeLessThanOrEqualTo(2);
    }

    /** Runs the command line; a hang on a FIFO fails the test instead of the build. */
    private int promptly(final String... args) {
        return assertTimeoutPreemptively(
                PROMPTLY,
                () -> MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                        .execute(args));
    }
}

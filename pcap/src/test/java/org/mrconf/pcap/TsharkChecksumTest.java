package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Has Wireshark's dissectors, an implementation we did not write, judge our checksums. With {@code -T fields}
 * tshark prints a checksum status as a number; checked against {@code -V} on tshark 4.0: 0 = Bad, 1 = Good,
 * 2 = Unverified, 3 = Not present (zero UDP checksum over IPv4), 4 = Illegal (zero UDP checksum over IPv6).
 * IPv6 frames have no {@code ip.checksum.status} at all.
 */
class TsharkChecksumTest {

    private static final String GOOD = "1";
    private static final String BAD = "0";
    private static final String NOT_PRESENT = "3";
    private static final String ILLEGAL = "4";

    @TempDir
    Path dir;

    private static final Path TSHARK = onPath("tshark");

    private Path tshark;

    // Per test, not @BeforeAll: Surefire reports an aborted class as zero tests, hiding the reason.
    @BeforeEach
    void requireTshark() {
        tshark = TSHARK;
        assumeTrue(
                tshark != null,
                "tshark is not on PATH, so the Wireshark cross-check is skipped "
                        + "(install it with `sudo apt-get install tshark`; CI does)");
    }

    @Test
    void shouldBeJudgedGoodByTsharkForIpv4AndIpv6() throws Exception {
        List<UdpFrame> frames = new ArrayList<>();
        for (int size : new int[] {0, 1, 7, 256, 1472, 9000}) {
            for (Ecn ecn : Ecn.values()) {
                frames.add(Frames.ipv4(size).toBuilder().ecn(ecn).build());
                frames.add(Frames.ipv6(size).toBuilder().ecn(ecn).build());
            }
        }
        Path file = dir.resolve("good.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            frames.forEach(w::write);
        }

        List<String[]> rows = tsharkFields(file, "ip.version", "ip.checksum.status", "udp.checksum.status");

        assertThat(rows).hasSize(frames.size());
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            UdpFrame f = frames.get(i);
            if (f.isIpv6()) {
                assertThat(row[1])
                        .as("frame %d (%s) has no IPv4 header checksum", i + 1, f)
                        .isEmpty();
            } else {
                assertThat(row[1])
                        .as("IPv4 header checksum status of frame %d (%s)", i + 1, f)
                        .isEqualTo(GOOD);
            }
            assertThat(row[2])
                    .as("UDP checksum status of frame %d (%s)", i + 1, f)
                    .isEqualTo(GOOD);
        }
    }

    @Test
    void shouldBeJudgedBadByTsharkWhenCorruptedOnPurpose() throws Exception {
        EncodeOptions badUdp = EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.CORRUPT);
        EncodeOptions badIp = EncodeOptions.DEFAULT.withIpv4HeaderChecksum(ChecksumMode.CORRUPT);
        EncodeOptions zeroUdp = EncodeOptions.DEFAULT.withUdpChecksum(ChecksumMode.ZERO);
        Path file = dir.resolve("bad.pcap");
        try (PcapWriter w = PcapWriter.create(file)) {
            w.write(Frames.ipv4(100), badUdp); // 1
            w.write(Frames.ipv6(100), badUdp); // 2
            w.write(Frames.ipv4(100), badIp); // 3
            w.write(Frames.ipv6(100), zeroUdp); // 4: zero is illegal over IPv6
            w.write(Frames.ipv4(100), zeroUdp); // 5: zero is "no checksum" over IPv4
        }

        List<String[]> rows = tsharkFields(file, "ip.version", "ip.checksum.status", "udp.checksum.status");

        assertThat(rows).hasSize(5);
        assertThat(rows.get(0)[2]).as("IPv4, corrupt UDP checksum").isEqualTo(BAD);
        assertThat(rows.get(0)[1]).as("IPv4 header untouched").isEqualTo(GOOD);
        assertThat(rows.get(1)[2]).as("IPv6, corrupt UDP checksum").isEqualTo(BAD);
        assertThat(rows.get(2)[1]).as("IPv4, corrupt header checksum").isEqualTo(BAD);
        assertThat(rows.get(3)[2]).as("IPv6, zero UDP checksum").isEqualTo(ILLEGAL);
        assertThat(rows.get(4)[2]).as("IPv4, zero UDP checksum means none").isEqualTo(NOT_PRESENT);
        assertThat(rows.get(4)[1]).isEqualTo(GOOD);
    }

    /** Runs tshark with checksum validation on and returns one tab-split row of {@code fields} per frame. */
    private List<String[]> tsharkFields(Path capture, String... fields) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                tshark.toString(),
                "-n",
                "-r",
                capture.toString(),
                "-o",
                "ip.check_checksum:TRUE",
                "-o",
                "udp.check_checksum:TRUE",
                "-T",
                "fields"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Path err = dir.resolve("tshark.err");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        // Read stdout before waiting so a large output cannot fill the pipe and stall tshark.
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("tshark finished").isTrue();
        assertThat(p.exitValue())
                .as("tshark exit status; stderr: %s", Files.readString(err))
                .isZero();
        List<String[]> rows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private static Path onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path candidate = Path.of(d, name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}

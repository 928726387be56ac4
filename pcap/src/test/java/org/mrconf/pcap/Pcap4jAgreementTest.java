package org.mrconf.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapHandle.TimestampPrecision;
import org.pcap4j.core.Pcaps;

/**
 * The pure-Java {@link PcapReader} reads every committed capture exactly as libpcap (through Pcap4J, a test
 * dependency for this check only) does: the same number of frames, the same bytes, timestamps and original lengths.
 * The files: every capture under {@code test-vectors/}, the fuzz seeds and regression inputs (some damaged: both
 * readers must refuse them), and hand-built pcapng.
 * Skipped, with the reason, where libpcap is not installed.
 */
class Pcap4jAgreementTest {

    @TempDir
    Path dir;

    @Test
    void shouldReadEveryCommittedCaptureAsLibpcapDoes() throws Exception {
        assumeLibpcap();
        final Path vectors = Path.of(System.getProperty("mrconf.root", ".."), "test-vectors");
        final List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(vectors)) {
            walk.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng"))
                    .sorted()
                    .forEach(files::add);
        }
        assertThat(files).as("captures under %s", vectors).hasSizeGreaterThanOrEqualTo(100);
        try (Stream<Path> seeds = Files.list(Path.of(
                "src/test/resources/org/mrconf/pcap/PcapReaderFuzzTestInputs/anyCaptureGivesFramesOrOneNamedError"))) {
            seeds.sorted().forEach(files::add);
        }
        files.add(write("us.pcapng", new PcapngBuilder(1, 6)));
        files.add(write("ns.pcapng", new PcapngBuilder(1, 9)));
        files.add(write("default.pcapng", new PcapngBuilder(1, -1)));
        final Path ng = dir.resolve("written.pcapng");
        try (PcapWriter w = PcapWriter.create(ng, CaptureFormat.PCAPNG)) {
            w.write(Frames.ipv4(1));
            w.write(Frames.ipv6(9000));
        }
        files.add(ng);

        long frames = 0;
        for (final Path file : files) {
            final Object ours = outcome(() -> PcapReader.readAll(file));
            final Object theirs = outcome(() -> libpcap(file));
            assertThat(ours).as("%s", file).isEqualTo(theirs);
            frames += ours instanceof List<?> list ? list.size() : 0;
        }
        assertThat(frames).as("frames compared in %d files", files.size()).isGreaterThan(files.size());
    }

    /** The pure-Java writer writes, byte for byte, the classic pcap that libpcap's {@code pcap_dump} writes. */
    @Test
    void shouldWriteTheSameBytesAsLibpcap() throws Exception {
        assumeLibpcap();
        for (final TimestampResolution resolution : TimestampResolution.values()) {
            final Path ours = dir.resolve("ours-" + resolution + ".pcap");
            final Path theirs = dir.resolve("theirs-" + resolution + ".pcap");
            final List<UdpFrame> frames = List.of(
                    Frames.ipv4(0),
                    Frames.ipv6(9000).withTimestamp(Instant.ofEpochSecond(0x7FFF_FFFFL, 999_999_999L)),
                    Frames.ipv4(1472).withTimestamp(Instant.ofEpochSecond(1_700_000_000L, 123_456_789L)));
            try (PcapWriter w = PcapWriter.create(ours, resolution)) {
                frames.forEach(w::write);
            }
            final PcapHandle dead = Pcaps.openDead(
                    org.pcap4j.packet.namednumber.DataLinkType.EN10MB,
                    PcapWriter.SNAPLEN,
                    resolution == TimestampResolution.NANO ? TimestampPrecision.NANO : TimestampPrecision.MICRO);
            try (dead) {
                final org.pcap4j.core.PcapDumper dumper = dead.dumpOpen(theirs.toString());
                for (final UdpFrame f : frames) {
                    dumper.dumpRaw(FrameCodec.encode(f), java.sql.Timestamp.from(f.timestamp()));
                }
                dumper.close();
            }
            assertThat(Files.readAllBytes(ours)).as("%s", resolution).isEqualTo(Files.readAllBytes(theirs));
        }
    }

    private Path write(final String name, final PcapngBuilder builder) throws Exception {
        final Path file = dir.resolve(name);
        Files.write(
                file,
                builder.packet(FrameCodec.encode(Frames.ipv4(3)), Instant.ofEpochSecond(1_700_000_000L, 123_456_789))
                        .packet(FrameCodec.encode(Frames.ipv6(64)), Instant.ofEpochSecond(5, 1_000))
                        .build());
        return file;
    }

    /** What reading gives: the frames, or "refused" when the file is damaged (the fuzz seeds hold some). */
    private static Object outcome(final java.util.concurrent.Callable<List<CapturedFrame>> read) {
        try {
            return read.call();
        } catch (final CaptureFileException | org.pcap4j.core.PcapNativeException e) {
            return "refused";
        } catch (final Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Every frame of {@code file} as libpcap reads it. */
    private static List<CapturedFrame> libpcap(final Path file) throws Exception {
        final List<CapturedFrame> frames = new ArrayList<>();
        final boolean pcapng = Files.readAllBytes(file)[0] == 0x0A;
        final PcapHandle handle = Pcaps.openOffline(file.toString(), TimestampPrecision.NANO);
        try {
            while (true) {
                final byte[] data;
                try {
                    data = handle.getNextRawPacketEx();
                } catch (final EOFException e) {
                    return frames;
                }
                Instant ts = handle.getTimestamp().toInstant();
                if (!pcapng && ts.getEpochSecond() < 0) {
                    ts = ts.plusSeconds(1L << 32); // libpcap reads classic seconds as signed; the format says unsigned
                }
                frames.add(new CapturedFrame(frames.size(), ts, data, handle.getOriginalLength()));
            }
        } finally {
            handle.close();
        }
    }

    private static void assumeLibpcap() {
        try {
            Libpcap.version();
        } catch (final PcapUnavailableException e) {
            Assumptions.abort("libpcap is not installed, so there is nothing to compare with: " + e.getMessage());
        }
    }
}

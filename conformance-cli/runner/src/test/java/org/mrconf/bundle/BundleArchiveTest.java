package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The archive form: deterministic when packed, and hostile archives refused when unpacked. */
class BundleArchiveTest {
    private static final Instant STAMP = Instant.parse("2026-11-30T10:00:30.123Z");

    @TempDir
    Path dir;

    @Test
    // Path order is byte order of the relative path, as in the manifest: a directory still precedes its files.
    void shouldPackEntriesInPathOrderWithOneTimestampAndNoOwner() throws IOException {
        final Path bundle = dir.resolve("b");
        write(bundle.resolve("z.txt"), "z");
        write(bundle.resolve("a/b.txt"), "b");
        write(bundle.resolve("a.txt"), "a");
        final Path archive = dir.resolve("b.tar.gz");

        BundleArchive.pack(bundle, archive, STAMP);

        final List<String> names = new ArrayList<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new GzipCompressorInputStream(Files.newInputStream(archive)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                names.add(e.getName());
                assertThat(e.getModTime().toInstant()).isEqualTo(Instant.parse("2026-11-30T10:00:30Z"));
                assertThat(e.getLongUserId()).isZero();
                assertThat(e.getUserName()).isEmpty();
            }
        }
        assertThat(names).containsExactly("b/", "b/a/", "b/a.txt", "b/a/b.txt", "b/z.txt");
    }

    @Test
    void shouldUnpackWhatItPacked() throws IOException {
        final Path bundle = dir.resolve("b");
        write(bundle.resolve("run/evidence/x.pcap"), "pcap");
        final Path archive = dir.resolve("b.tar.gz");
        BundleArchive.pack(bundle, archive, STAMP);

        final Path root = BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out")));

        assertThat(root.resolve("run/evidence/x.pcap")).hasContent("pcap");
    }

    @Test
    void shouldRefuseAnEntryThatEscapesTheBundle() throws IOException {
        final Path archive = hostile(tar -> {
            file(tar, "b/ok.txt");
            file(tar, "b/../../evil.txt");
        });

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("evil.txt");
        assertThat(dir.resolve("evil.txt")).doesNotExist();
    }

    @Test
    void shouldRefuseALink() throws IOException {
        final Path archive = hostile(tar -> {
            final TarArchiveEntry link = new TarArchiveEntry("b/link", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("/etc/passwd");
            tar.putArchiveEntry(link);
            tar.closeArchiveEntry();
        });

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("'b/link' is a link or special file");
    }

    @Test
    void shouldRefuseTwoTopDirectories() throws IOException {
        final Path archive = hostile(tar -> {
            file(tar, "b/one.txt");
            file(tar, "c/two.txt");
        });

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("outside the top directory 'b/'");
    }

    @Test
    void shouldRefuseAFileThatIsNotAGzipTar() throws IOException {
        final Path archive = dir.resolve("junk.tar.gz");
        Files.writeString(archive, "not an archive");

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessageStartingWith(archive + ": not a readable .tar.gz");
    }

    @Test
    // Issue 36, finding 5: commons-compress calls a FIFO or a device entry a file; it was unpacked as one.
    void shouldRefuseAFifoEntry() throws IOException {
        final Path archive = hostile(tar -> {
            file(tar, "b/report.json");
            final TarArchiveEntry fifo = new TarArchiveEntry("b/evidence.pcap", TarArchiveEntry.LF_FIFO);
            tar.putArchiveEntry(fifo);
            tar.closeArchiveEntry();
        });

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessage(archive + ": entry 'b/evidence.pcap' is a link or special file (a FIFO); a bundle holds"
                        + " plain files and directories only");
    }

    @Test
    void shouldRefuseACharacterDeviceEntry() throws IOException {
        final Path archive = hostile(tar -> {
            final TarArchiveEntry device = new TarArchiveEntry("b/zero", TarArchiveEntry.LF_CHR);
            device.setDevMajor(1);
            device.setDevMinor(5);
            tar.putArchiveEntry(device);
            tar.closeArchiveEntry();
        });

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("'b/zero' is a link or special file (a character device)");
    }

    @Test
    // Issue 36, finding 4: each file was capped, the sum was not (a 1.2 MB archive wrote 1.16 GiB).
    void shouldStopAtTheTotalUnpackedBudget() throws IOException {
        final int eachBytes = 40 << 20; // under the per-file cap; two of them pass the 64 MiB floor of the budget
        final Path archive = hostile(tar -> {
            for (final String name : new String[] {"b/one.pcap", "b/two.pcap", "b/three.pcap"}) {
                final TarArchiveEntry entry = new TarArchiveEntry(name, true);
                entry.setSize(eachBytes);
                tar.putArchiveEntry(entry);
                final byte[] zeros = new byte[1 << 20];
                for (int i = 0; i < eachBytes / zeros.length; i++) {
                    tar.write(zeros);
                }
                tar.closeArchiveEntry();
            }
        });
        assertThat(Files.size(archive)).as("zeros compress ~1000:1").isLessThan(1L << 20);
        final Path out = Files.createDirectory(dir.resolve("out"));

        assertThatThrownBy(() -> BundleArchive.unpack(archive, out))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("unpacks to more than " + (64L << 20) + " bytes")
                .hasMessageContaining("at entry 'b/two.pcap'");
        try (var files = Files.walk(out)) {
            final long written = files.filter(Files::isRegularFile)
                    .mapToLong(p -> p.toFile().length())
                    .sum();
            assertThat(written).isLessThanOrEqualTo(64L << 20);
        }
    }

    @Test
    void shouldBudgetBetween64MiBAnd1GiBAt100TimesTheArchive() {
        assertThat(BundleArchive.budget(500_000)).isEqualTo(64L << 20);
        // The 1.2 MB archive that wrote 1.16 GiB now stops at 120 MB.
        assertThat(BundleArchive.budget(1_200_000)).isEqualTo(120_000_000L);
        assertThat(BundleArchive.budget(100L << 20)).isEqualTo(1L << 30);
        assertThat(BundleArchive.budget(Long.MAX_VALUE)).isEqualTo(1L << 30);
    }

    @Test
    // Issue 36, finding 11: a truncated archive said "not a readable .tar.gz (null)".
    void shouldSayATruncatedArchiveEndsEarly() throws IOException {
        final Path bundle = dir.resolve("b");
        final byte[] noise = new byte[200_000];
        new java.util.Random(36).nextBytes(noise);
        Files.createDirectories(bundle);
        Files.write(bundle.resolve("evidence.pcap"), noise);
        final Path archive = dir.resolve("b.tar.gz");
        BundleArchive.pack(bundle, archive, STAMP);
        final byte[] whole = Files.readAllBytes(archive);
        Files.write(archive, java.util.Arrays.copyOf(whole, whole.length / 2));

        assertThatThrownBy(() -> BundleArchive.unpack(archive, Files.createDirectory(dir.resolve("out"))))
                .isInstanceOf(BundleInputException.class)
                .hasMessage(archive + ": not a readable .tar.gz: the archive ends early (truncated)");
    }

    // ---------------------------------------------------------------------------------------------------------

    private interface Entries {
        void write(TarArchiveOutputStream tar) throws IOException;
    }

    private Path hostile(final Entries entries) throws IOException {
        final Path archive = dir.resolve("hostile.tar.gz");
        try (OutputStream out = Files.newOutputStream(archive);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(new GzipCompressorOutputStream(out))) {
            entries.write(tar);
            tar.finish();
        }
        return archive;
    }

    private static void file(final TarArchiveOutputStream tar, final String name) throws IOException {
        final byte[] body = "x".getBytes(StandardCharsets.US_ASCII);
        final TarArchiveEntry entry = new TarArchiveEntry(name, true);
        entry.setSize(body.length);
        tar.putArchiveEntry(entry);
        tar.write(body);
        tar.closeArchiveEntry();
    }

    private static void write(final Path file, final String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}

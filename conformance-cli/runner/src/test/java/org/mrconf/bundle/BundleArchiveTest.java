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

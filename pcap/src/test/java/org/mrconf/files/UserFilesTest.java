package org.mrconf.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.files.UserFileException.Reason;

/** The one way a command opens a user's file (issue 36): each refusal in one line, before a byte is read. */
class UserFilesTest {
    private static final UserFiles.Kind TINY = new UserFiles.Kind("a tiny file", 8);

    @TempDir
    Path dir;

    @Test
    void shouldReadARegularFile() throws Exception {
        final Path file = Files.writeString(dir.resolve("a.json"), "\uFEFF{}");

        assertThat(UserFiles.readUtf8(file, TINY)).isEqualTo("{}");
    }

    @Test
    void shouldRefuseAFifoWithoutOpeningIt() throws Exception {
        final Path fifo = dir.resolve("fifo");
        final Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (final java.io.IOException e) {
            Assumptions.abort("no mkfifo on this OS");
            return;
        }
        Assumptions.assumeTrue(mkfifo.waitFor() == 0, "mkfifo is not available");

        assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> assertThatThrownBy(() -> UserFiles.readBytes(fifo, UserFiles.Kind.KEY))
                        .isInstanceOf(UserFileException.class)
                        .hasMessage(fifo + ": is not a regular file (a directory, FIFO or device)"));
        assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> assertThatThrownBy(() -> UserFiles.open(fifo, UserFiles.Kind.CAPTURE))
                        .isInstanceOf(UserFileException.class));
    }

    @Test
    void shouldRefuseADevice() {
        final Path zero = Path.of("/dev/zero");
        Assumptions.assumeTrue(Files.exists(zero), "no /dev/zero on this OS");

        assertThatThrownBy(() -> UserFiles.readBytes(zero, UserFiles.Kind.REPORT))
                .isInstanceOf(UserFileException.class)
                .extracting(e -> ((UserFileException) e).reason())
                .isEqualTo(Reason.NOT_REGULAR);
    }

    @Test
    void shouldRefuseADirectoryAndAMissingFile() {
        assertThatThrownBy(() -> UserFiles.readBytes(dir, TINY))
                .hasMessageEndingWith("is not a regular file (a directory, FIFO or device)");
        assertThatThrownBy(() -> UserFiles.readBytes(dir.resolve("none"), TINY))
                .hasMessage(dir.resolve("none") + ": does not exist");
    }

    @Test
    void shouldRefuseAFileOverItsKindsLimit() throws Exception {
        final Path file = Files.writeString(dir.resolve("big"), "123456789");

        assertThatThrownBy(() -> UserFiles.readBytes(file, TINY))
                .hasMessage(file + ": is larger than the 8 bytes a tiny file may have");
        try (InputStream in = UserFiles.open(Files.writeString(dir.resolve("ok"), "12345678"), TINY)) {
            assertThat(in.readAllBytes()).hasSize(8);
        }
    }

    @Test
    void shouldNameTheFirstByteThatIsNotUtf8() throws Exception {
        final Path file = Files.write(dir.resolve("bad"), new byte[] {'{', (byte) 0xC3, '}'});

        assertThatThrownBy(() -> UserFiles.readUtf8(file, TINY))
                .hasMessage(file + ": is not UTF-8 text: byte 0xc3 at offset 1");
    }

    @Test
    void shouldFollowALinkOnlyInsideItsFolder() throws Exception {
        final Path folder = Files.createDirectory(dir.resolve("run"));
        final Path target = Files.writeString(folder.resolve("real.json"), "{}");
        final Path inside = Files.createSymbolicLink(folder.resolve("report.json"), target);
        final Path secret = Files.writeString(dir.resolve("secret"), "secret");
        final Path outside = Files.createSymbolicLink(folder.resolve("other.json"), secret);

        assertThat(UserFiles.readUtf8Inside(folder, inside, TINY)).isEqualTo("{}");
        assertThatThrownBy(() -> UserFiles.readUtf8Inside(folder, outside, TINY))
                .hasMessage(outside + ": is a link that leads outside " + folder + "; the suite follows no such link")
                .hasMessageNotContaining("secret\n");
    }

    @Test
    void shouldWriteNothingThroughALink() throws Exception {
        final Path victim = Files.writeString(dir.resolve("victim"), "keep");
        final Path link = Files.createSymbolicLink(dir.resolve("MANIFEST.sha256"), victim);

        assertThatThrownBy(() -> UserFiles.writeUtf8(link, "overwritten"))
                .isInstanceOf(UserFileException.class)
                .hasMessage(link + ": is a symbolic link; the suite writes nothing through a link (remove it)");
        assertThat(Files.readString(victim)).isEqualTo("keep");

        final Path plain = dir.resolve("plain");
        final Path usual = Files.writeString(dir.resolve("usual"), "");
        UserFiles.writeUtf8(plain, "one");
        if (Files.getFileStore(dir).supportsFileAttributeView("posix")) {
            assertThat(Files.getPosixFilePermissions(plain)).isEqualTo(Files.getPosixFilePermissions(usual));
        }
        UserFiles.writeUtf8(plain, "two");
        assertThat(Files.readString(plain, StandardCharsets.UTF_8)).isEqualTo("two");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".partial"));
        }
    }

    @Test
    void shouldMakeAFolderOrSayWhyNot() throws Exception {
        final Path file = Files.writeString(dir.resolve("file"), "x");

        assertThat(UserFiles.makeFolder(dir.resolve("a/b"), "the reports")).isDirectory();
        assertThatThrownBy(() -> UserFiles.makeFolder(file, "the reports"))
                .hasMessage(file + ": is not a folder (a file is there); give a new folder for the reports");
        assertThatThrownBy(() -> UserFiles.makeFolder(file.resolve("sub"), "the reports"))
                .isInstanceOf(UserFileException.class)
                .hasMessageStartingWith(file.resolve("sub") + ": cannot be made: ");
    }
}

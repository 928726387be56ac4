package org.mrconf.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manifest: sha256sum's format, sorted, and nothing but plain relative paths in or out. */
class ManifestTest {
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    @TempDir
    Path dir;

    @Test
    void shouldListEveryFileButTheExcludedInPathOrder() throws IOException {
        Files.createDirectories(dir.resolve("run/evidence"));
        Files.writeString(dir.resolve("run/evidence/a.pcap"), "");
        Files.writeString(dir.resolve("README.md"), "");
        Files.writeString(dir.resolve("MANIFEST.sha256"), "old");

        final BundleManifest manifest = BundleManifest.of(dir, Set.of("MANIFEST.sha256"));

        assertThat(new String(manifest.format(), StandardCharsets.UTF_8))
                .isEqualTo(EMPTY_SHA256 + "  README.md\n" + EMPTY_SHA256 + "  run/evidence/a.pcap\n");
    }

    @Test
    void shouldParseWhatItFormats() throws IOException {
        Files.writeString(dir.resolve("a.txt"), "a");
        final BundleManifest manifest = BundleManifest.of(dir, Set.of());

        assertThat(BundleManifest.parse(manifest.format(), "M")).isEqualTo(manifest);
    }

    @Test
    void shouldRefuseALineThatIsNotAHashAndAPlainPath() {
        for (final String line : new String[] {
            EMPTY_SHA256 + " one-space.txt",
            EMPTY_SHA256.toUpperCase() + "  upper.txt",
            EMPTY_SHA256 + "  ../up.txt",
            EMPTY_SHA256 + "  /etc/passwd",
            EMPTY_SHA256 + "  a/./b",
            "deadbeef  short.txt"
        }) {
            assertThatThrownBy(() -> BundleManifest.parse((line + "\n").getBytes(StandardCharsets.UTF_8), "M"))
                    .as(line)
                    .isInstanceOf(BundleInputException.class)
                    .hasMessageStartingWith("M: line 1 is not");
        }
    }

    @Test
    void shouldRefuseAFileListedTwice() {
        final String line = EMPTY_SHA256 + "  a.txt\n";

        assertThatThrownBy(() -> BundleManifest.parse((line + line).getBytes(StandardCharsets.UTF_8), "M"))
                .isInstanceOf(BundleInputException.class)
                .hasMessage("M: line 2 lists a.txt twice");
    }

    @Test
    void shouldRefuseASymbolicLink() throws IOException {
        final Path link = Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc/hostname"));

        assertThatThrownBy(() -> BundleManifest.of(dir, Set.of()))
                .isInstanceOf(BundleInputException.class)
                .hasMessageContaining("is a symbolic link");
        Files.delete(link); // so that @TempDir's clean-up does not warn about a link leaving the folder
    }
}

package org.mrconf.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mrconf.authoring.ReferenceReplay;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.replay.TestVector;
import org.mrconf.replay.VectorCorpus;

class VectorsCommandTest {
    private static final Path COMMITTED = Path.of(System.getProperty("mrconf.root", "../.."), "test-vectors");

    private StringWriter out;
    private StringWriter err;

    @TempDir
    Path dir;

    @BeforeEach
    void writers() {
        out = new StringWriter();
        err = new StringWriter();
    }

    @Test
    void shouldVerifyTheCommittedCorpus() {
        final int exit = execute("vectors", "verify", "--root", COMMITTED.toString());
        assertThat(exit).as("stderr: %s", err).isZero();
        assertThat(out.toString()).contains("0 problems");
    }

    @Test
    void shouldFailVerifyWhenAPcapByteChangesBehindTheManifestsBack() throws Exception {
        final Path root = copyOfTheCorpus();
        final Path stimulus = root.resolve("6.5.1/duplicate-write").resolve(TestVector.STIMULUS);
        final byte[] bytes = Files.readAllBytes(stimulus);
        bytes[bytes.length - 1] ^= 1;
        Files.write(stimulus, bytes);

        assertThat(execute("vectors", "verify", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(stimulus.toString()).contains("changed since MANIFEST.sha256 was made");
    }

    @Test
    void shouldFailVerifyWhenASidecarFieldChangesBehindTheManifestsBack() throws Exception {
        final Path root = copyOfTheCorpus();
        final Path sidecar = root.resolve("6.5.1/duplicate-write").resolve(TestVector.SIDECAR);
        Files.writeString(sidecar, Files.readString(sidecar).replace("\"delta\" : 1", "\"delta\" : 0"));

        assertThat(execute("vectors", "verify", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(sidecar.toString()).contains("changed since");
    }

    @Test
    void shouldListANewFolderWithoutARebuild() throws Exception {
        final Path root = copyOfTheCorpus();
        final Path copy = root.resolve("6.5.1/duplicate-write-again");
        Files.createDirectories(copy);
        for (final String file : new String[] {TestVector.SIDECAR, TestVector.STIMULUS}) {
            Files.writeString(copy.resolve(file), "", java.nio.charset.StandardCharsets.UTF_8); // replaced below
            Files.copy(
                    root.resolve("6.5.1/duplicate-write").resolve(file),
                    copy.resolve(file),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        final Path sidecar = copy.resolve(TestVector.SIDECAR);
        Files.writeString(
                sidecar, Files.readString(sidecar).replace("6.5.1/duplicate-write", "6.5.1/duplicate-write-again"));

        assertThat(execute("vectors", "list", "--root", root.toString(), "--clause", "6.5"))
                .isZero();
        assertThat(out.toString()).contains("6.5.1/duplicate-write-again").contains("2 of ");
    }

    @Test
    void shouldScaffoldAFolderThatNamesWhatIsMissing() throws Exception {
        assertThat(execute("vectors", "new", "7.3.1", "--name", "second-receive", "--root", dir.toString()))
                .isZero();
        assertThat(dir.resolve("7.3.1/second-receive/vector.json")).isRegularFile();
        writers();
        assertThat(execute("vectors", "verify", "--root", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("stimulus.pcap").contains("missing");
    }

    @Test
    void shouldRefuseAnUnknownClauseForANewVector() {
        assertThat(execute("vectors", "new", "7.9.9", "--root", dir.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("7.9.9");
    }

    @Test
    void shouldPassEveryCommittedVectorAgainstTheEmbeddedReference() throws Exception {
        final VectorCorpus corpus = VectorCorpus.discover(COMMITTED, new CatalogueLoader().loadBundled());
        assertThat(corpus.vectors()).isNotEmpty();
        // Each in a configuration that claims its profiles and carries it; every vector must find one, and pass.
        assertThat(ReferenceReplay.run(corpus).stream()
                        .filter(o -> o.failure().isPresent())
                        .map(o -> o.vector().id() + ": " + o.failure().get())
                        .toList())
                .as("vectors the clean reference does not meet")
                .isEmpty();
    }

    private Path copyOfTheCorpus() throws Exception {
        final Path root = dir.resolve("corpus");
        try (Stream<Path> files = Files.walk(COMMITTED)) {
            for (final Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                final Path target = root.resolve(COMMITTED.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return root;
    }

    private int execute(final String... args) {
        return MetaroceCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
    }
}

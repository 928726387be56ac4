package org.mrconf.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.mrconf.files.UserFiles;
import org.mrconf.verdict.RunRecord;

/**
 * Makes a bundle from a run folder: copies the reports and evidence byte for byte, adds the product, suite,
 * environment and vector documents and a README, writes the SHA-256 manifest of every file, signs it, and packs the
 * directory into a deterministic {@code .tar.gz}. The directory is assembled under a temporary name and renamed
 * when complete, so a failed create never leaves something that looks like a bundle.
 */
public final class BundleCreator {
    private final RunFolder.Reader reader;
    private final Map<String, String> system;

    /**
     * @param reader reads a run's report.json
     * @param system the host facts for environment.json ({@code os.name}, {@code java.version}, ...)
     */
    public BundleCreator(final RunFolder.Reader reader, final Map<String, String> system) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.system = Map.copyOf(system);
    }

    /** The host facts environment.json records, from this JVM's system properties. */
    public static Map<String, String> hostFacts() {
        final Map<String, String> facts = new java.util.TreeMap<>();
        for (final String key : List.of(
                "os.name",
                "os.version",
                "os.arch",
                "java.vendor",
                "java.runtime.version",
                "java.version",
                "java.vm.name")) {
            final String value = System.getProperty(key);
            if (value != null) {
                facts.put(key, value);
            }
        }
        return facts;
    }

    /**
     * The default archive for a run folder: beside it, named after it.
     *
     * @return {@code <RUN_DIR>-bundle.tar.gz}
     */
    public static Path defaultArchive(final Path runDir) {
        final Path absolute = runDir.toAbsolutePath().normalize();
        return absolute.resolveSibling(absolute.getFileName() + "-bundle.tar.gz");
    }

    /** The directory that goes with an archive name: the name without {@code .tar.gz} or {@code .tgz}. */
    public static Path directoryOf(final Path archive) {
        final String name = archive.getFileName().toString();
        final String stem;
        if (name.endsWith(".tar.gz")) {
            stem = name.substring(0, name.length() - ".tar.gz".length());
        } else if (name.endsWith(".tgz")) {
            stem = name.substring(0, name.length() - ".tgz".length());
        } else {
            throw new BundleInputException("--out " + archive + ": the bundle file must end in .tar.gz or .tgz");
        }
        if (stem.isEmpty()) {
            throw new BundleInputException("--out " + archive + ": needs a name before .tar.gz");
        }
        return archive.resolveSibling(stem);
    }

    /**
     * Makes the bundle.
     *
     * @param runDir  the run folder {@code metaroce run} wrote
     * @param key     the signing key pair; empty makes an unsigned bundle that {@code verify} rejects
     * @param archive the {@code .tar.gz} to write; the directory goes beside it
     * @throws BundleInputException when the run folder, the key or the output location cannot be used
     */
    public Created create(final Path runDir, final Optional<KeyPair> key, final Path archive) throws IOException {
        if (!Files.isDirectory(runDir)) {
            throw new BundleInputException(runDir + ": not a directory; RUN_DIR is the folder metaroce run wrote");
        }
        for (final String report : BundleLayout.RUN_REPORTS) {
            if (!Files.isRegularFile(runDir.resolve(report), LinkOption.NOFOLLOW_LINKS)) {
                throw new BundleInputException(runDir.resolve(report) + ": missing; a bundle needs all four reports ("
                        + String.join(", ", BundleLayout.RUN_REPORTS) + ")");
            }
        }
        final RunFolder run = RunFolder.read(runDir, reader);
        final Path directory = directoryOf(archive).toAbsolutePath().normalize();
        for (final Path out : List.of(directory, archive)) {
            if (Files.exists(out, LinkOption.NOFOLLOW_LINKS)) {
                throw new BundleInputException(out + ": already exists; remove it or choose another --out");
            }
        }
        Files.createDirectories(directory.getParent());
        final Path partial = Files.createTempDirectory(directory.getParent(), directory.getFileName() + ".partial-");
        try {
            final List<String> skipped = copyRunFolder(runDir, partial.resolve(BundleLayout.RUN));
            final Optional<JsonNode> profile = readProfile(run.record());
            if (profile.isPresent()) {
                write(partial, BundleLayout.DUT_PROFILE, BundleDocuments.text(profile.get()));
            }
            final boolean hasProfile = profile.isPresent();
            write(partial, BundleLayout.PRODUCT, BundleDocuments.text(BundleDocuments.product(run.record())));
            write(partial, BundleLayout.SUITE, BundleDocuments.text(BundleDocuments.suite(run.record())));
            write(
                    partial,
                    BundleLayout.ENVIRONMENT,
                    BundleDocuments.text(BundleDocuments.environment(run.record(), system, profile.orElse(null))));
            write(partial, BundleLayout.VECTORS, BundleDocuments.text(BundleDocuments.vectors(run.record())));
            write(partial, BundleLayout.README, BundleReadme.text(run.record(), hasProfile, key.isPresent()));
            if (key.isPresent()) {
                write(
                        partial,
                        BundleLayout.SIGNER_KEY,
                        SigningKeys.publicPem(key.get().getPublic()));
            }
            final byte[] manifest =
                    BundleManifest.of(partial, BundleLayout.UNLISTED).format();
            Files.write(partial.resolve(BundleLayout.MANIFEST), manifest);
            if (key.isPresent()) {
                Files.write(
                        partial.resolve(BundleLayout.SIGNATURE),
                        SigningKeys.sign(key.get().getPrivate(), manifest));
            }
            Files.move(partial, directory);
            try {
                BundleArchive.pack(directory, archive, stamp(run.record()));
            } catch (IOException | RuntimeException e) {
                deleteTree(directory); // half a bundle must not look like one
                throw e;
            }
            return new Created(
                    directory,
                    archive,
                    BundleManifest.files(directory).size(),
                    key.map(k -> SigningKeys.fingerprint(k.getPublic())),
                    skipped);
        } finally {
            deleteTree(partial);
        }
    }

    /**
     * What {@link #create} made.
     *
     * @param directory   the bundle directory
     * @param archive     the bundle archive
     * @param files       how many files it holds
     * @param fingerprint the signing key's fingerprint; empty when unsigned
     * @param skipped     files of the run folder that are not reports or evidence and were left out
     */
    public record Created(Path directory, Path archive, int files, Optional<String> fingerprint, List<String> skipped) {
        public Created {
            skipped = List.copyOf(skipped);
        }
    }

    /** One timestamp for every archive entry: when the run finished (or started), so a rebuild is identical. */
    static Instant stamp(final RunRecord record) {
        return record.finishedAt().orElse(record.startedAt());
    }

    /** Copies the four reports and evidence/** as they are; returns the other files it leaves out. */
    private static List<String> copyRunFolder(final Path runDir, final Path target) throws IOException {
        Files.createDirectories(target);
        for (final String report : BundleLayout.RUN_REPORTS) {
            Files.copy(runDir.resolve(report), target.resolve(report));
        }
        final Path evidence = runDir.resolve(BundleLayout.EVIDENCE_DIR);
        if (Files.isDirectory(evidence, LinkOption.NOFOLLOW_LINKS)) {
            for (final Path file : BundleManifest.files(evidence)) {
                final Path copy =
                        target.resolve(BundleLayout.EVIDENCE_DIR).resolve(BundleManifest.relativePath(evidence, file));
                Files.createDirectories(copy.getParent());
                Files.copy(file, copy);
            }
        }
        final List<String> skipped = new ArrayList<>();
        try (Stream<Path> top = Files.list(runDir)) {
            top.map(p -> p.getFileName().toString())
                    .filter(n -> !BundleLayout.RUN_REPORTS.contains(n) && !n.equals(BundleLayout.EVIDENCE_DIR))
                    .sorted()
                    .forEach(skipped::add);
        }
        return skipped;
    }

    /**
     * The declaration file the run named, when it is still readable from here, with any control token replaced: a
     * token is a secret of the vendor's lab, not evidence.
     */
    private static Optional<JsonNode> readProfile(final RunRecord record) {
        final String name = record.dut().name();
        if (!name.endsWith(".json") || !Files.isRegularFile(Path.of(name))) {
            return Optional.empty();
        }
        try {
            final JsonNode tree =
                    BundleDocuments.MAPPER.readTree(UserFiles.readUtf8(Path.of(name), UserFiles.Kind.PROFILE));
            if (tree.path("control") instanceof ObjectNode control && control.has("token")) {
                control.put("token", "<redacted>");
            }
            return tree.isObject() ? Optional.of(tree) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static void write(final Path root, final String relative, final String text) throws IOException {
        final Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    static void deleteTree(final Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (final Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}

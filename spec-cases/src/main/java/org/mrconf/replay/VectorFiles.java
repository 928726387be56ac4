package org.mrconf.replay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.mrconf.files.UserFiles;

/**
 * The files of vector folders and their SHA-256, in one place for {@code MANIFEST.sha256}, {@code vectors list} and the
 * reports: a vector's files are its {@value TestVector#SIDECAR}, {@value TestVector#STIMULUS} and, when present,
 * {@value TestVector#EXPECTED}; each is named by its path under the vector root with {@code /}, as in the manifest.
 * A vector's own SHA-256 is that of its lines of the manifest ({@code HASH  PATH\n}, sorted by path), so anyone can
 * recompute it from {@code MANIFEST.sha256}: {@code grep '  7.1.1/write-arrival-order-0123/' MANIFEST.sha256 | sha256sum}.
 */
public final class VectorFiles {
    private static final List<String> NAMES = List.of(TestVector.SIDECAR, TestVector.STIMULUS, TestVector.EXPECTED);

    private VectorFiles() {}

    /** Whether a file of this name belongs to a vector (and so to the manifest). */
    public static boolean isVectorFile(final String name) {
        return NAMES.contains(name);
    }

    /** The SHA-256 of every vector file under {@code root}, by its path under the root. */
    public static SortedMap<String, String> hashesUnder(final Path root) throws IOException {
        final SortedMap<String, String> entries = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path file : files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .filter(p -> isVectorFile(p.getFileName().toString()))
                    .toList()) {
                entries.put(pathUnder(root, file), sha256(file));
            }
        }
        return Collections.unmodifiableSortedMap(entries);
    }

    /** The SHA-256 of the files of the vector in {@code folder} (directly in it), by their paths under {@code root}. */
    public static SortedMap<String, String> hashesOf(final Path root, final Path folder) throws IOException {
        final SortedMap<String, String> entries = new TreeMap<>();
        for (final String name : NAMES) {
            final Path file = folder.resolve(name);
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                entries.put(pathUnder(root, file), sha256(file));
            }
        }
        return Collections.unmodifiableSortedMap(entries);
    }

    /** A vector's SHA-256: over its manifest lines, in path order. */
    public static String digest(final SortedMap<String, String> hashes) {
        final StringBuilder lines = new StringBuilder();
        hashes.forEach(
                (path, hash) -> lines.append(hash).append("  ").append(path).append('\n'));
        return sha256(lines.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Hex SHA-256 of a vector file, streamed (a capture may be large; a sidecar has its size limit). */
    static String sha256(final Path file) throws IOException {
        final MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        final UserFiles.Kind kind = file.getFileName().toString().equals(TestVector.SIDECAR)
                ? UserFiles.Kind.SIDECAR
                : UserFiles.Kind.CAPTURE;
        try (InputStream in = new DigestInputStream(UserFiles.open(file, kind), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Hex SHA-256 of {@code bytes}. */
    public static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (final NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    private static String pathUnder(final Path root, final Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }
}

package org.mrconf.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.mrconf.files.UserFiles;

/**
 * The SHA-256 of every file of a bundle, in the format of GNU {@code sha256sum} ({@code <64 hex>  <path>} per line,
 * paths relative to the bundle root with {@code /}, sorted), so that {@code sha256sum -c MANIFEST.sha256} checks a
 * bundle without this suite. Paths are limited to a safe set of characters so that a line always parses back to the
 * same path.
 */
public record BundleManifest(SortedMap<String, String> sha256ByPath) {
    private static final Pattern LINE = Pattern.compile("([0-9a-f]{64})  (.+)");
    private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9._+@=-]+(/[A-Za-z0-9._+@=-]+)*");

    public BundleManifest {
        sha256ByPath = Collections.unmodifiableSortedMap(new TreeMap<>(sha256ByPath));
    }

    /**
     * The manifest of every regular file under {@code root} except the paths in {@code excluded} (the manifest and its
     * signature). A symbolic link or a special file is refused: a bundle holds plain files only.
     */
    public static BundleManifest of(final Path root, final Set<String> excluded) throws IOException {
        final SortedMap<String, String> hashes = new TreeMap<>();
        for (final Path file : files(root)) {
            final String path = relativePath(root, file);
            if (!excluded.contains(path)) {
                hashes.put(path, sha256Hex(file));
            }
        }
        return new BundleManifest(hashes);
    }

    /** Every regular file under {@code root}, sorted; refuses links and special files. */
    static List<Path> files(final Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            final List<Path> all = walk.filter(p -> !p.equals(root)).sorted().toList();
            for (final Path path : all) {
                if (Files.isSymbolicLink(path)) {
                    throw new BundleInputException(path + ": is a symbolic link; a bundle holds plain files only");
                }
                if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)
                        && !Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BundleInputException(path + ": is not a regular file");
                }
                checkSafe(relativePath(root, path), path.toString());
            }
            return all.stream()
                    .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .toList();
        }
    }

    /**
     * Parses a manifest; {@code source} names the file in errors.
     *
     * @throws BundleInputException naming the line that is not {@code <64 lowercase hex>  <path>}
     */
    public static BundleManifest parse(final byte[] text, final String source) {
        final SortedMap<String, String> hashes = new TreeMap<>();
        final String[] lines = new String(text, StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (i == lines.length - 1 && lines[i].isEmpty()) {
                break;
            }
            final var match = LINE.matcher(lines[i]);
            if (!match.matches() || !isSafe(match.group(2))) {
                throw new BundleInputException(
                        source + ": line " + (i + 1) + " is not '<sha256 hex>  <path>' with a plain relative path");
            }
            if (hashes.put(match.group(2), match.group(1)) != null) {
                throw new BundleInputException(source + ": line " + (i + 1) + " lists " + match.group(2) + " twice");
            }
        }
        return new BundleManifest(hashes);
    }

    /** The manifest's text: one line per file in path order, each ending in a newline. */
    public byte[] format() {
        final StringBuilder text = new StringBuilder();
        sha256ByPath.forEach(
                (path, hash) -> text.append(hash).append("  ").append(path).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The hex SHA-256 of a file's bytes, streamed. */
    public static String sha256Hex(final Path file) throws IOException {
        final MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
        // Streamed, so any size is fine; a FIFO or device is refused before it is opened.
        try (InputStream in = new DigestInputStream(UserFiles.open(file, UserFiles.Kind.CAPTURE), digest)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The path of {@code file} under {@code root} with forward slashes. */
    static String relativePath(final Path root, final Path file) {
        return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
    }

    /** Whether a relative path is plain: safe characters only, no {@code .} or {@code ..} segment. */
    static boolean isSafe(final String path) {
        return SAFE_PATH.matcher(path).matches()
                && Stream.of(path.split("/")).noneMatch(s -> s.equals("..") || s.equals("."));
    }

    /** Refuses a path the manifest format cannot carry unambiguously; {@code source} names it. */
    static void checkSafe(final String path, final String source) {
        if (!SAFE_PATH.matcher(path).matches()
                || Stream.of(path.split("/")).anyMatch(s -> s.equals("..") || s.equals("."))) {
            throw new BundleInputException(source + ": the name '" + path
                    + "' has characters a bundle cannot carry (allowed: letters, digits and ._+@=-)");
        }
    }
}

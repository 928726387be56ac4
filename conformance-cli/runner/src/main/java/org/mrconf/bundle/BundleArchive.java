package org.mrconf.bundle;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipParameters;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * The {@code .tar.gz} form of a bundle, with Apache Commons Compress. Packing is deterministic, so the same bundle
 * directory always gives the same bytes: entries in path order, one timestamp for all (the caller's, to the second),
 * owner 0:0 with no names, modes 0644 and 0755, and a gzip header with that timestamp and no file name or host OS.
 * Unpacking treats the archive as hostile: it accepts only plain files and directories under one top directory,
 * never a link, a FIFO, a device, an absolute path or {@code ..}; it bounds each file, the number of entries and the
 * total unpacked size ({@link #budget}).
 */
public final class BundleArchive {
    /** The largest file a bundle may hold; pcaps of failed cases are small, a bigger file is not a bundle. */
    static final long MAX_FILE_BYTES = 1L << 30;
    /** The most entries a bundle may hold. */
    static final int MAX_ENTRIES = 100_000;
    /** The most all the files of a bundle may hold together, unpacked. */
    static final long MAX_TOTAL_BYTES = 1L << 30;
    /**
     * Unpacked bytes allowed per byte of archive: reports and pcaps compress well under 100:1, while a gzip of zeros
     * reaches 1000:1, so a small archive cannot fill the disk before it is found out.
     */
    static final long MAX_RATIO = 100;
    /** The budget of a small archive is never below this, whatever its ratio. */
    static final long MIN_BUDGET_BYTES = 64L << 20;

    private static final int GZIP_OS_UNKNOWN = 255;

    private BundleArchive() {}

    /** Packs {@code directory} as {@code <its name>/...} into {@code tarGz}, every entry stamped {@code time}. */
    public static void pack(final Path directory, final Path tarGz, final Instant time) throws IOException {
        final Instant stamp = time.truncatedTo(ChronoUnit.SECONDS);
        final String top = directory.getFileName().toString();
        final GzipParameters gzip = new GzipParameters();
        gzip.setModificationTime(stamp.toEpochMilli());
        gzip.setOperatingSystem(GZIP_OS_UNKNOWN);
        final Path partial = tarGz.resolveSibling(tarGz.getFileName() + ".partial");
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(partial));
                GzipCompressorOutputStream gz = new GzipCompressorOutputStream(file, gzip);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            tar.putArchiveEntry(entry(top + "/", 0, stamp, TarArchiveEntry.DEFAULT_DIR_MODE));
            tar.closeArchiveEntry();
            for (final Path path : sortedTree(directory)) {
                final String name = top + "/" + BundleManifest.relativePath(directory, path);
                if (Files.isDirectory(path)) {
                    tar.putArchiveEntry(entry(name + "/", 0, stamp, TarArchiveEntry.DEFAULT_DIR_MODE));
                    tar.closeArchiveEntry();
                } else {
                    tar.putArchiveEntry(entry(name, Files.size(path), stamp, TarArchiveEntry.DEFAULT_FILE_MODE));
                    Files.copy(path, tar);
                    tar.closeArchiveEntry();
                }
            }
            tar.finish();
        }
        Files.move(partial, tarGz, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Unpacks {@code tarGz} into the empty directory {@code into} and returns the bundle's top directory.
     *
     * @throws BundleInputException when the file is not a gzip tar or holds anything but one tree of plain files
     */
    public static Path unpack(final Path tarGz, final Path into) throws IOException {
        String top = null;
        int entries = 0;
        long total = 0;
        final long budget;
        try {
            budget = budget(UserFiles.checkRegular(tarGz, UserFiles.Kind.CAPTURE));
        } catch (UserFileException e) {
            throw new BundleInputException(e.getMessage(), e);
        }
        try (InputStream file = new BufferedInputStream(UserFiles.open(tarGz, UserFiles.Kind.CAPTURE));
                GzipCompressorInputStream gz = new GzipCompressorInputStream(file);
                TarArchiveInputStream tar = new TarArchiveInputStream(gz)) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (++entries > MAX_ENTRIES) {
                    throw bad(tarGz, "more than " + MAX_ENTRIES + " entries");
                }
                final String name = stripSlash(entry.getName());
                final String first = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
                if (top == null) {
                    top = first;
                } else if (!top.equals(first)) {
                    throw bad(tarGz, "entry '" + entry.getName() + "' is outside the top directory '" + top + "/'");
                }
                BundleManifest.checkSafe(name, tarGz + ": entry '" + entry.getName() + "'");
                final Path target = into.resolve(name).normalize();
                if (!target.startsWith(into)) {
                    throw bad(tarGz, "entry '" + entry.getName() + "' escapes the bundle");
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (isPlainFile(entry)) {
                    if (entry.getSize() > MAX_FILE_BYTES) {
                        throw bad(tarGz, "entry '" + entry.getName() + "' is larger than " + MAX_FILE_BYTES + " bytes");
                    }
                    total += entry.getSize();
                    if (total > budget) {
                        throw bad(
                                tarGz,
                                "unpacks to more than " + budget + " bytes (at entry '" + entry.getName()
                                        + "'); a bundle may unpack to at most " + MAX_RATIO
                                        + " times its archive's size (at least " + MIN_BUDGET_BYTES + ", at most "
                                        + MAX_TOTAL_BYTES + " bytes)");
                    }
                    if (Files.exists(target)) {
                        throw bad(tarGz, "entry '" + entry.getName() + "' appears twice");
                    }
                    Files.createDirectories(target.getParent());
                    Files.copy(tar, target);
                } else {
                    throw bad(
                            tarGz,
                            "entry '" + entry.getName() + "' is a link or special file (" + kind(entry)
                                    + "); a bundle holds plain" + " files and directories only");
                }
            }
        } catch (java.io.EOFException e) {
            throw bad(tarGz, "not a readable .tar.gz: the archive ends early (truncated)");
        } catch (IOException e) {
            throw bad(
                    tarGz,
                    "not a readable .tar.gz ("
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")");
        }
        if (top == null) {
            throw bad(tarGz, "the archive is empty");
        }
        final Path root = into.resolve(top);
        if (!Files.isDirectory(root)) {
            throw bad(tarGz, "'" + top + "' is not a directory; a bundle archive holds one top directory");
        }
        return root;
    }

    /** How much a bundle archive of {@code archiveBytes} may unpack to. */
    static long budget(final long archiveBytes) {
        final long byRatio = archiveBytes > MAX_TOTAL_BYTES / MAX_RATIO ? MAX_TOTAL_BYTES : archiveBytes * MAX_RATIO;
        return Math.min(MAX_TOTAL_BYTES, Math.max(MIN_BUDGET_BYTES, byRatio));
    }

    /**
     * A plain file: tar type '0' (or the old NUL). {@link TarArchiveEntry#isFile()} is also true of a FIFO, a device
     * and a contiguous or sparse file, which a bundle never holds.
     */
    private static boolean isPlainFile(final TarArchiveEntry entry) {
        final byte type = entry.getLinkFlag();
        return (type == TarConstants.LF_NORMAL || type == TarConstants.LF_OLDNORM)
                && !entry.getName().endsWith("/");
    }

    private static String kind(final TarArchiveEntry entry) {
        if (entry.isSymbolicLink()) {
            return "a symbolic link";
        }
        if (entry.isLink()) {
            return "a hard link";
        }
        if (entry.isFIFO()) {
            return "a FIFO";
        }
        if (entry.isCharacterDevice()) {
            return "a character device";
        }
        if (entry.isBlockDevice()) {
            return "a block device";
        }
        return "a special entry (tar type '" + (char) entry.getLinkFlag() + "')";
    }

    private static TarArchiveEntry entry(final String name, final long size, final Instant stamp, final int mode) {
        final TarArchiveEntry entry = new TarArchiveEntry(name, true);
        entry.setSize(size);
        entry.setModTime(FileTime.from(stamp));
        entry.setMode(mode);
        entry.setIds(0, 0);
        entry.setNames("", "");
        return entry;
    }

    private static List<Path> sortedTree(final Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(p -> !p.equals(directory))
                    .sorted((a, b) -> BundleManifest.relativePath(directory, a)
                            .compareTo(BundleManifest.relativePath(directory, b)))
                    .toList();
        }
    }

    private static String stripSlash(final String name) {
        return name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
    }

    private static BundleInputException bad(final Path tarGz, final String what) {
        return new BundleInputException(tarGz + ": " + what);
    }
}

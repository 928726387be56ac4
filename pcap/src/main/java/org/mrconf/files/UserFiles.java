package org.mrconf.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException.Reason;

/**
 * The one way a command opens a file a user names, or a file inside a folder a user names (a run folder, a vector
 * root, a bundle). Every refusal is a {@link UserFileException} whose message is one line naming the file; the CLI
 * prints it and exits 2.
 *
 * <ul>
 *   <li><b>Regular files only.</b> The type is read with {@link Files#readAttributes} <em>before</em> the file is
 *       opened, following a link to what it names: opening a FIFO blocks until a writer comes, and a device such as
 *       {@code /dev/zero} never ends, so both are refused unopened. (A file swapped for a FIFO between the check and
 *       the open is not guarded against; the user would have to race their own command.)
 *   <li><b>A size limit per kind of file</b> ({@link Kind}): checked on the attributes, and again while reading, so a
 *       file that grows is cut off at the limit, never read without end.
 *   <li><b>Links.</b> A file the user names on the command line is followed: the user chose it. A file the suite finds
 *       inside a folder is read through {@link #inside}: a link is followed only when where it leads stays inside
 *       that folder.
 *   <li><b>Nothing written through a link.</b> {@link #write} refuses a target that is a link or not a regular file,
 *       and replaces the file by an atomic rename, so even a link made meanwhile is replaced, not written through.
 * </ul>
 */
@API(status = INTERNAL, since = "0.1")
public final class UserFiles {
    /**
     * What a file is, for the messages, and the largest it may be.
     *
     * @param what     the kind, with its article ("a PEM key")
     * @param maxBytes the largest size accepted
     */
    public record Kind(String what, long maxBytes) {
        /** An Ed25519 PEM key or a raw signature: a few hundred bytes. */
        public static final Kind KEY = new Kind("a key", 64L << 10);
        /** A device declaration (JSON). */
        public static final Kind PROFILE = new Kind("a profile", 1L << 20);
        /** A test vector's {@code vector.json}. */
        public static final Kind SIDECAR = new Kind("a vector sidecar", 1L << 20);
        /** A {@code MANIFEST.sha256} of vectors or of a bundle: one line per file. */
        public static final Kind MANIFEST = new Kind("a manifest", 16L << 20);
        /** The draft's markdown or a clause catalogue a user is editing. */
        public static final Kind SPEC = new Kind("a spec document", 16L << 20);
        /** A run's {@code report.json} (or another document of a run folder or bundle: JSON, XML, JSON lines). */
        public static final Kind REPORT = new Kind("a report", 64L << 20);
        /** A capture: read record by record (each record bounded by its reader), so only the disk bounds it. */
        public static final Kind CAPTURE = new Kind("a capture", Long.MAX_VALUE);
    }

    private UserFiles() {}

    /**
     * Checks that {@code file} is a regular file (following a link) of at most {@code kind.maxBytes()}, without
     * opening it.
     *
     * @return its size
     */
    public static long checkRegular(final Path file, final Kind kind) throws UserFileException {
        final BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (final NoSuchFileException e) {
            throw new UserFileException(file, Reason.MISSING, "does not exist", e);
        } catch (final AccessDeniedException e) {
            throw new UserFileException(file, Reason.UNREADABLE, "cannot be read: permission denied", e);
        } catch (final IOException e) {
            throw new UserFileException(file, Reason.UNREADABLE, "cannot be read: " + describe(e), e);
        }
        if (!attributes.isRegularFile()) {
            throw new UserFileException(
                    file, Reason.NOT_REGULAR, "is not a regular file (a directory, FIFO or device)");
        }
        if (attributes.size() > kind.maxBytes()) {
            throw tooLarge(file, kind);
        }
        return attributes.size();
    }

    /** The bytes of {@code file}, checked as {@link #checkRegular} says. */
    public static byte[] readBytes(final Path file, final Kind kind) throws UserFileException {
        checkRegular(file, kind);
        final byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(
                    (int) Math.min(Integer.MAX_VALUE - 8L, Math.max(kind.maxBytes(), kind.maxBytes() + 1)));
        } catch (final NoSuchFileException e) {
            throw new UserFileException(file, Reason.MISSING, "does not exist", e);
        } catch (final IOException e) {
            throw new UserFileException(file, Reason.UNREADABLE, "cannot be read: " + describe(e), e);
        }
        if (bytes.length > kind.maxBytes()) {
            throw tooLarge(file, kind);
        }
        return bytes;
    }

    /**
     * The text of {@code file}: strict UTF-8 (a malformed byte is named with its offset; UTF-16 is named as such; a
     * UTF-8 byte-order mark is dropped).
     */
    public static String readUtf8(final Path file, final Kind kind) throws UserFileException {
        return decodeUtf8(file, readBytes(file, kind), kind);
    }

    /** The folder a file found in a folder belongs to: its parent as named (so messages name it as the user did). */
    public static Path folderOf(final Path file) {
        return file.getParent() != null
                ? file.getParent()
                : file.toAbsolutePath().getParent();
    }

    /** {@link #readBytes} for a file found inside {@code folder}: see {@link #inside}. */
    public static byte[] readBytesInside(final Path folder, final Path file, final Kind kind) throws UserFileException {
        return readBytes(inside(folder, file), kind);
    }

    /** {@link #readUtf8} for a file found inside {@code folder}: see {@link #inside}. */
    public static String readUtf8Inside(final Path folder, final Path file, final Kind kind) throws UserFileException {
        return readUtf8(inside(folder, file), kind);
    }

    /**
     * Opens {@code file} for streaming after {@link #checkRegular}; the stream fails with a {@link UserFileException}
     * once more than {@code kind.maxBytes()} bytes have been read.
     */
    public static InputStream open(final Path file, final Kind kind) throws UserFileException {
        checkRegular(file, kind);
        final InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (final NoSuchFileException e) {
            throw new UserFileException(file, Reason.MISSING, "does not exist", e);
        } catch (final IOException e) {
            throw new UserFileException(file, Reason.UNREADABLE, "cannot be read: " + describe(e), e);
        }
        return kind.maxBytes() == Long.MAX_VALUE ? in : new Bounded(in, file, kind);
    }

    /**
     * {@code file}, a path inside {@code folder}, once it is sure that it leads to a place inside {@code folder}: a
     * link (the file itself or a folder on its way) is followed only as far as the folder's own real path. A file
     * that does not exist is returned as it is, for the reader to say so.
     */
    public static Path inside(final Path folder, final Path file) throws UserFileException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return file;
        }
        final Path realFolder;
        final Path realFile;
        try {
            realFolder = folder.toRealPath();
            realFile = file.toRealPath();
        } catch (final NoSuchFileException e) {
            throw new UserFileException(file, Reason.LINK, "is a link that leads nowhere", e);
        } catch (final IOException e) {
            throw new UserFileException(file, Reason.UNREADABLE, "cannot be read: " + describe(e), e);
        }
        if (!realFile.startsWith(realFolder)) {
            throw new UserFileException(
                    file, Reason.LINK, "is a link that leads outside " + folder + "; the suite follows no such link");
        }
        return file;
    }

    /**
     * Writes {@code bytes} to {@code target}, replacing a regular file there, never through a link: a target that is
     * a link (or a folder, FIFO or device) is refused, and the bytes go to a temporary file beside it that is then
     * renamed over it.
     */
    public static void write(final Path target, final byte[] bytes) throws IOException {
        checkWritable(target);
        final Path folder = target.toAbsolutePath().getParent();
        // Not Files.createTempFile, which makes the file 0600: the written file gets the user's usual mode.
        final Path temp = Files.createFile(
                folder.resolve("." + target.getFileName() + "." + Long.toHexString(System.nanoTime()) + ".partial"));
        try {
            Files.write(temp, bytes, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Makes the folder {@code folder} (and its parents) for the suite to write into, or finds it there; a file, FIFO
     * or device in the way, or a folder that cannot be made, is refused with one line naming the path.
     *
     * @param what what the folder is for, for the message ("the run folder")
     */
    public static Path makeFolder(final Path folder, final String what) throws UserFileException {
        if (Files.exists(folder) && !Files.isDirectory(folder)) {
            throw new UserFileException(
                    folder, Reason.NOT_REGULAR, "is not a folder (a file is there); give a new folder for " + what);
        }
        try {
            return Files.createDirectories(folder);
        } catch (final java.nio.file.FileAlreadyExistsException e) {
            throw new UserFileException(
                    folder,
                    Reason.NOT_REGULAR,
                    "cannot be made: " + e.getFile() + " is a file, not a folder; give a new folder for " + what,
                    e);
        } catch (final AccessDeniedException e) {
            throw new UserFileException(
                    folder, Reason.UNREADABLE, "cannot be made: permission denied (" + e.getFile() + ")", e);
        } catch (final java.nio.file.FileSystemException e) {
            throw new UserFileException(
                    folder,
                    Reason.UNREADABLE,
                    "cannot be made: " + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason())
                            + (e.getFile() == null || e.getFile().equals(folder.toString())
                                    ? ""
                                    : " (" + e.getFile() + ")"),
                    e);
        } catch (final IOException e) {
            throw new UserFileException(folder, Reason.UNREADABLE, "cannot be made: " + describe(e), e);
        }
    }

    /**
     * Refuses a {@code target} the suite must not write: a link (the write would land where it leads), or a folder,
     * FIFO or device. For writers that open the file themselves (a capture writer); {@link #write} calls it.
     */
    public static void checkWritable(final Path target) throws UserFileException {
        if (Files.isSymbolicLink(target)) {
            throw new UserFileException(
                    target, Reason.LINK, "is a symbolic link; the suite writes nothing through a link (remove it)");
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)
                && !Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new UserFileException(
                    target, Reason.NOT_REGULAR, "is not a regular file (a directory, FIFO or device)");
        }
    }

    /** {@link #write} of UTF-8 text. */
    public static void writeUtf8(final Path target, final CharSequence text) throws IOException {
        write(target, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Strict UTF-8 decoding of bytes read from {@code file}, with the messages of {@link #readUtf8}. */
    public static String decodeUtf8(final Path file, final byte[] bytes, final Kind kind) throws UserFileException {
        if (bytes.length >= 2
                && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                        || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
            throw new UserFileException(file, Reason.NOT_UTF8, "is UTF-16 text; " + kind.what() + " must be UTF-8");
        }
        final CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        final CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new UserFileException(
                    file,
                    Reason.NOT_UTF8,
                    String.format(
                            Locale.ROOT,
                            "is not UTF-8 text: byte 0x%02x at offset %d",
                            bytes[in.position()] & 0xFF,
                            in.position()));
        }
        decoder.flush(out);
        final String text = out.flip().toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text; // a UTF-8 byte-order mark is harmless
    }

    private static UserFileException tooLarge(final Path file, final Kind kind) {
        return new UserFileException(
                file,
                Reason.TOO_LARGE,
                "is larger than the " + kind.maxBytes() + " bytes " + kind.what() + " may have");
    }

    private static String describe(final IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** A stream that refuses to read past a kind's limit. */
    private static final class Bounded extends FilterInputStream {
        private final Path file;
        private final Kind kind;
        private long read;

        Bounded(final InputStream in, final Path file, final Kind kind) {
            super(in);
            this.file = file;
            this.kind = kind;
        }

        @Override
        public int read() throws IOException {
            final int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(final byte[] buffer, final int offset, final int length) throws IOException {
            final int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(final long n) throws IOException {
            final long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(final long n) throws UserFileException {
            read += n;
            if (read > kind.maxBytes()) {
                throw tooLarge(file, kind);
            }
        }
    }
}

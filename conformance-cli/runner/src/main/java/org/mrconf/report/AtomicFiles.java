package org.mrconf.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * Replaces a file in one step: the content goes to a temporary file in the same folder, which is then renamed over
 * the target. A reader (or a run killed half-way through a write) sees the old file or the new one, never a torn one.
 */
final class AtomicFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {}

    /** Writes {@code text} as UTF-8 to {@code target} atomically. */
    static void writeString(final Path target, final String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code bytes} to {@code target} atomically. */
    static void write(final Path target, final byte[] bytes) throws IOException {
        replace(target, temp -> Files.write(temp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    }

    /** Lets {@code filler} write a temporary file beside {@code target}, then renames it over the target. */
    static void replace(final Path target, final Filler filler) throws IOException {
        final Path folder = target.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        // Not Files.createTempFile: it makes the file owner-only (0600), and reports are meant to be read by
        // others (the umask decides, as for any file). The filler creates the file; a random name avoids clashes.
        final Path temp = folder.resolve(
                "." + target.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
        try {
            filler.fill(temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                // Same folder, so this only happens on odd file systems; a plain replace is the best they allow.
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Creates the given (temporary) path and writes the file's content to it. */
    @FunctionalInterface
    interface Filler {
        void fill(Path temp) throws IOException;
    }
}

package org.mrconf.dut;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Reads the small text files a user hands the suite (DUT profiles; test-vector sidecars when they have a
 * reader): only a regular file, only up to a size limit, only strict UTF-8. Each refusal is one
 * {@link DutProfileException} naming the file, so the CLI prints one line and exits 2. A FIFO or device is
 * refused before it is opened, so the CLI never blocks on it or reads it without end.
 */
@API(status = INTERNAL, since = "0.1")
public final class TextFiles {
    private TextFiles() {}

    /**
     * The file's text.
     *
     * @param maxBytes largest size accepted
     * @param what     what the file should be, for the size message ("a profile")
     */
    public static String readUtf8(final Path file, final long maxBytes, final String what) throws DutProfileException {
        final String source = file.toString();
        if (!Files.exists(file)) {
            throw new DutProfileException(source, "(file)", "does not exist");
        }
        if (!Files.isRegularFile(file)) {
            throw new DutProfileException(
                    source, "(file)", "is not a regular file (a directory, FIFO or device); give a JSON file");
        }
        final byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        } catch (final NoSuchFileException e) {
            throw new DutProfileException(source, "(file)", "does not exist", e);
        } catch (final IOException e) {
            throw new DutProfileException(source, "(file)", "cannot be read: " + e.getMessage(), e);
        }
        if (bytes.length > maxBytes) {
            throw new DutProfileException(
                    source, "(file)", "is larger than the " + maxBytes + " bytes " + what + " may have");
        }
        return decode(source, bytes);
    }

    private static String decode(final String source, final byte[] bytes) throws DutProfileException {
        if (bytes.length >= 2
                && ((bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF)
                        || (bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE))) {
            throw new DutProfileException(source, "(file)", "is UTF-16 text; a profile must be UTF-8");
        }
        final CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length);
        final CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new DutProfileException(
                    source,
                    "(file)",
                    String.format(
                            "is not UTF-8 text: byte 0x%02x at offset %d", bytes[in.position()] & 0xFF, in.position()));
        }
        decoder.flush(out);
        String text = out.flip().toString();
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // a UTF-8 byte-order mark is harmless
        }
        return text;
    }
}

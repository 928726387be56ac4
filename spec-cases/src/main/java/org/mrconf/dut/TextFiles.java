package org.mrconf.dut;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.nio.file.Path;
import org.apiguardian.api.API;
import org.mrconf.files.UserFileException;
import org.mrconf.files.UserFiles;

/**
 * Reads the small text files a user hands the suite (device declarations; test-vector sidecars when they have a
 * reader): only a regular file, only up to a size limit, only strict UTF-8. Each refusal is one
 * {@link DeclarationException} naming the file, so the CLI prints one line and exits 2. A FIFO or device is
 * refused before it is opened, so the CLI never blocks on it or reads it without end. The checks are those of
 * {@link UserFiles}, the one way every command opens a file a user names.
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
    public static String readUtf8(final Path file, final long maxBytes, final String what) throws DeclarationException {
        try {
            return UserFiles.readUtf8(file, new UserFiles.Kind(what, maxBytes));
        } catch (final UserFileException e) {
            final String problem = e.reason() == UserFileException.Reason.NOT_REGULAR
                    ? e.problem() + "; give a JSON file"
                    : e.problem();
            throw new DeclarationException(file.toString(), "(file)", problem, e);
        }
    }
}

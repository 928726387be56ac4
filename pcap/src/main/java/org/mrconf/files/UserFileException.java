package org.mrconf.files;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A file a user named that the suite will not read or write: missing, not a regular file, too large, not UTF-8, or a
 * link. The message is one line, {@code FILE: problem}; commands print it and exit 2.
 */
@API(status = INTERNAL, since = "0.1")
public final class UserFileException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the file was refused, for callers that word the refusal their own way. */
    public enum Reason {
        MISSING,
        NOT_REGULAR,
        TOO_LARGE,
        NOT_UTF8,
        LINK,
        UNREADABLE
    }

    private final transient Path file;
    private final Reason reason;
    private final String problem;

    public UserFileException(final Path file, final Reason reason, final String problem) {
        this(file, reason, problem, null);
    }

    public UserFileException(final Path file, final Reason reason, final String problem, final Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.reason = reason;
        this.problem = problem;
    }

    /** The file refused. */
    public Path file() {
        return file;
    }

    /** Why. */
    public Reason reason() {
        return reason;
    }

    /** The problem without the file name. */
    public String problem() {
        return problem;
    }
}

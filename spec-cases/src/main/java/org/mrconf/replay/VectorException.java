package org.mrconf.replay;

import java.nio.file.Path;

/** A vector that cannot be used: the message names the file and the field, so an author can fix it. */
public final class VectorException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String field;

    public VectorException(final Path file, final String field, final String problem) {
        super(file + ": " + (field.isEmpty() ? "" : field + ": ") + problem);
        this.file = file;
        this.field = field;
    }

    public VectorException(final Path file, final String field, final String problem, final Throwable cause) {
        super(file + ": " + (field.isEmpty() ? "" : field + ": ") + problem, cause);
        this.file = file;
        this.field = field;
    }

    public Path file() {
        return file;
    }

    public String field() {
        return field;
    }
}

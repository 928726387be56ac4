package org.mrconf.catalogue;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A catalogue or spec file that cannot be used: the message names the file and the field, so a user
 * can fix it without a stack trace.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CatalogueException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final String field;

    public CatalogueException(final String source, final String field, final String problem) {
        this(source, field, problem, null);
    }

    public CatalogueException(final String source, final String field, final String problem, final Throwable cause) {
        super(source + ": " + field + ": " + problem, cause);
        this.source = source;
        this.field = field;
    }

    /** The file or resource that holds the problem. */
    public String source() {
        return source;
    }

    /** The field (JSON path or spec line) that holds the problem. */
    public String field() {
        return field;
    }
}

package org.mrconf.report;

import java.io.IOException;

/** A report file that cannot be used: missing, unreadable, not JSON, or a field of the wrong shape. Names both. */
public final class ReportInputException extends IOException {
    private static final long serialVersionUID = 1L;

    public ReportInputException(final String message) {
        super(message);
    }

    public ReportInputException(final String message, final Throwable cause) {
        super(message, cause);
    }
}

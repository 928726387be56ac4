package org.mrconf.bundle;

/**
 * Input the user has to fix: a missing run folder, an unreadable key, an archive that is not a bundle. The message
 * names the file and, where there is one, the field. The CLI prints it on one line and exits 2.
 */
public final class BundleInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BundleInputException(final String message) {
        super(message);
    }

    public BundleInputException(final String message, final Throwable cause) {
        super(message, cause);
    }
}

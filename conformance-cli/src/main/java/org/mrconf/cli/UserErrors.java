package org.mrconf.cli;

import org.mrconf.catalogue.CatalogueException;

/** Maps exceptions that escape a subcommand to one line for the user and an exit code. */
final class UserErrors {
    private UserErrors() {
    }

    /** One line naming what went wrong; for input errors, the file and field. */
    static String describe(final Exception exception) {
        if (exception instanceof CatalogueException) {
            return exception.getMessage();
        }
        final String message = exception.getMessage();
        return exception.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** 2 for input the user must fix, 1 otherwise (an internal failure). */
    static int exitCode(final Exception exception) {
        return exception instanceof CatalogueException ? MetaroceCommand.EXIT_BAD_INPUT : 1;
    }
}

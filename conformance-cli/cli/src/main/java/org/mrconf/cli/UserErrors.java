package org.mrconf.cli;

import org.mrconf.bundle.BundleInputException;
import org.mrconf.catalogue.CatalogueException;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DutControlException;
import org.mrconf.files.UserFileException;
import org.mrconf.pcap.CaptureFileException;

/** Maps exceptions that escape a subcommand to one line for the user and an exit code. */
final class UserErrors {
    private UserErrors() {}

    /** One line naming what went wrong; for input errors, the file and field. */
    static String describe(final Exception exception) {
        if (exception instanceof CatalogueException
                || exception instanceof DeclarationException
                || exception instanceof CaptureFileException
                || exception instanceof UserFileException
                || exception instanceof BundleInputException) {
            return exception.getMessage();
        }
        if (exception instanceof DutControlException) {
            return "cannot use the device's control agent: " + exception.getMessage();
        }
        final String message = exception.getMessage();
        return exception.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** 2 for input or a device the user must fix, 1 otherwise (an internal failure). */
    static int exitCode(final Exception exception) {
        return exception instanceof CatalogueException
                        || exception instanceof DeclarationException
                        || exception instanceof DutControlException
                        || exception instanceof CaptureFileException
                        || exception instanceof UserFileException
                        || exception instanceof BundleInputException
                ? MetaroceCommand.EXIT_BAD_INPUT
                : 1;
    }
}

package org.mrconf.bundle;

import java.util.Objects;

/**
 * One reason a bundle is not acceptable, printed as one line: {@code <check>: <what, naming the file, clause or
 * case>}.
 *
 * @param check   the check that found it: {@code signature}, {@code hash}, {@code schema}, {@code summary},
 *                {@code clause}, {@code siblings}, {@code coverage}, {@code defect}, {@code version}, {@code interrupted},
 *                {@code verdict}, {@code product}, {@code bundle}, {@code archive}, {@code report}
 * @param message what is wrong
 */
public record Problem(String check, String message) {
    public Problem {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return check + ": " + message.replace('\n', ' ');
    }
}

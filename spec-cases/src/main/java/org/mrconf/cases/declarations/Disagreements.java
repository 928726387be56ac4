package org.mrconf.cases.declarations;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The disagreements found between two declarations of a device, collected so that one run reports all of them. It
 * does the job of AssertJ's soft assertions, which spend over a second generating proxy classes on their first use in
 * a run, for the two cases of this package that need nothing more than equality and ranges.
 */
final class Disagreements {
    private final List<String> found = new ArrayList<>();

    /** Records a disagreement when {@code said} (hello) and {@code file} (the declaration file) differ. */
    void same(final String what, final Object said, final Object file) {
        if (!Objects.equals(said, file)) {
            found.add(String.format("%s: hello says %s, the declaration file %s", what, said, file));
        }
    }

    /** Records {@code what} with the value it is about when {@code holds} is false. */
    void require(final String what, final boolean holds, final Object value) {
        if (!holds) {
            found.add(String.format("%s, but it is %s", what, value));
        }
    }

    /** Fails the case with every disagreement found, one a line. */
    void assertNone() {
        if (!found.isEmpty()) {
            throw new AssertionError(found.size() + (found.size() == 1 ? " disagreement" : " disagreements") + ":\n  "
                    + String.join("\n  ", found));
        }
    }
}

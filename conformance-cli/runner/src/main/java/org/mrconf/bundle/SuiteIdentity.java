package org.mrconf.bundle;

import java.util.Objects;

/**
 * Which suite a bundle was made with, or which suite is verifying it.
 *
 * @param version the suite version, e.g. {@code 0.1.0}
 * @param commit  the git commit it was built from; {@link #UNKNOWN} when the build did not record it
 */
public record SuiteIdentity(String version, String commit) {
    /** What the run record says when the build did not know its commit. */
    public static final String UNKNOWN = "unknown";

    public SuiteIdentity {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(commit, "commit");
    }

    boolean knowsCommit() {
        return !commit.isBlank() && !UNKNOWN.equals(commit);
    }
}

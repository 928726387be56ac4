package org.mrconf.selftest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.mrconf.replay.VectorScope;

/**
 * Where the self-test finds the test vectors it replays against the clean reference and against each defect (only
 * the vectors of the defect's declared clauses, as for the cases): the {@value VectorScope#ROOT_PARAMETER} system
 * property when set, else the nearest {@value VectorScope#DEFAULT_ROOT} folder in the working directory or above it,
 * so the self-test finds the corpus from the repository root (the CLI) and from a module folder (the build) alike.
 */
public final class SelfTestVectors {
    private SelfTestVectors() {}

    /** The vector root, or empty when there is none: the self-test then runs the cases only, and says so. */
    public static Optional<Path> locate() {
        final String property = System.getProperty(VectorScope.ROOT_PARAMETER);
        if (property != null && !property.isBlank()) {
            return Optional.of(Path.of(property));
        }
        return nearest(Path.of("").toAbsolutePath());
    }

    /** The first {@code test-vectors} folder in {@code start} or a folder above it. */
    static Optional<Path> nearest(final Path start) {
        for (Path folder = start; folder != null; folder = folder.getParent()) {
            final Path candidate = folder.resolve(VectorScope.DEFAULT_ROOT);
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}

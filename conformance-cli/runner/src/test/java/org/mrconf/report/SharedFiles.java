package org.mrconf.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the project's shared folder (third-party schemas kept beside the repository, not in it). It sits beside
 * the clone, so {@code ../../shared} from this module; a git worktree nested deeper finds it further up. Tests fail
 * with the places they looked when it is missing: a schema check that silently skips would prove nothing.
 */
final class SharedFiles {
    private SharedFiles() {}

    /** The shared folder, or an AssertionError naming where it was looked for. */
    static Path folder() {
        final List<Path> tried = new ArrayList<>();
        Path dir = Path.of("").toAbsolutePath().getParent(); // the repository root
        while (dir != null) {
            final Path candidate =
                    dir.getParent() == null ? null : dir.getParent().resolve("shared");
            if (candidate != null) {
                tried.add(candidate);
                if (Files.isDirectory(candidate.resolve("junit-xml"))
                        && Files.isDirectory(candidate.resolve("ocptv"))) {
                    return candidate;
                }
            }
            dir = dir.getParent();
        }
        throw new AssertionError("the shared folder with junit-xml/ and ocptv/ is missing; looked in " + tried
                + " (CI keeps a copy of shared/ beside the clone)");
    }

    static Path ocptvSchemas() {
        return folder().resolve("ocptv").resolve("json_spec_output");
    }

    static Path junitXsd() {
        return folder().resolve("junit-xml").resolve("surefire-test-report.xsd");
    }

    /** Schemas loaded from the shared copies (the report schema from the jar). */
    static ReportSchemas schemas() throws java.io.IOException {
        return ReportSchemas.with(ocptvSchemas(), junitXsd());
    }
}

package org.mrconf.replay;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which vectors a run replays: the root they are found under and, optionally, the clauses a vector must check to be
 * replayed at all. The runner hands both to the vector case as JUnit configuration parameters (one run's, so that two
 * runs in one JVM, as the self-test makes, each keep their own); a parameter not given falls back to the system
 * property of the same name, and the root to {@value #DEFAULT_ROOT} in the working directory.
 *
 * <p>The clause filter exists so a run selected by clause does not replay the whole corpus only to drop most results
 * (dynamic tests cannot be filtered before they run). It uses the runner's clause-pattern rules: an exact id, a glob
 * ({@code 7.1.*}) or a section prefix ({@code 7.1} matches 7.1.1).
 *
 * <p>The case filter does the same for a run selected by case id: a vector's id there is {@code vector:} and its
 * folder path, e.g. {@code vector:7.4.2/read-answered-out-of-order}, matched by the runner's globs
 * ({@code vector:*}, {@code vector:7.4.*}).
 *
 * @param root           the vector root
 * @param clausePatterns the clause patterns a vector must match one of; empty for every vector
 * @param casePatterns   globs over {@code vector:<id>} a vector must match one of; empty for every vector
 */
public record VectorScope(Path root, List<String> clausePatterns, List<String> casePatterns) {
    /** The configuration parameter (or system property) naming the vector root. */
    public static final String ROOT_PARAMETER = "metaroce.vectors";
    /** The configuration parameter naming the clause patterns, comma-separated. */
    public static final String CLAUSES_PARAMETER = "metaroce.vectors.clauses";
    /** The configuration parameter naming the case-id globs, comma-separated. */
    public static final String CASES_PARAMETER = "metaroce.vectors.cases";
    /** What a vector's case id starts with, before its id. */
    public static final String CASE_PREFIX = "vector:";
    /** The root when none is given: relative to the working directory. */
    public static final String DEFAULT_ROOT = "test-vectors";

    public VectorScope {
        clausePatterns = List.copyOf(clausePatterns);
        casePatterns = List.copyOf(casePatterns);
    }

    /** Every vector of these clauses, whatever its id. */
    public VectorScope(final Path root, final List<String> clausePatterns) {
        this(root, clausePatterns, List.of());
    }

    /** The scope the two parameters describe; absent parameters mean the default root and every vector. */
    public static VectorScope of(final Optional<String> root, final Optional<String> clauses) {
        return of(root, clauses, Optional.empty());
    }

    /** The scope the three parameters describe; absent parameters mean the default root and every vector. */
    public static VectorScope of(
            final Optional<String> root, final Optional<String> clauses, final Optional<String> cases) {
        return new VectorScope(
                Path.of(root.filter(r -> !r.isBlank()).orElse(DEFAULT_ROOT)), split(clauses), split(cases));
    }

    private static List<String> split(final Optional<String> list) {
        return list.map(c -> Arrays.stream(c.split(","))
                        .map(String::trim)
                        .filter(p -> !p.isEmpty())
                        .toList())
                .orElse(List.of());
    }

    /** The root when the run names none: the system property {@value #ROOT_PARAMETER}, else {@value #DEFAULT_ROOT}. */
    public static Path defaultRoot() {
        return of(Optional.ofNullable(System.getProperty(ROOT_PARAMETER)), Optional.empty())
                .root();
    }

    /**
     * Whether {@code vector} is replayed: it checks a clause that one of the clause patterns matches (or there are
     * none), and its case id matches one of the case globs (or there are none).
     */
    public boolean includes(final TestVector vector) {
        return (clausePatterns.isEmpty()
                        || vector.sidecar().clauses().stream()
                                .anyMatch(id -> clausePatterns.stream().anyMatch(p -> clauseMatches(p, id))))
                && (casePatterns.isEmpty()
                        || casePatterns.stream()
                                .anyMatch(p -> glob(p).matcher(CASE_PREFIX + vector.id())
                                        .matches()));
    }

    /** A clause pattern matches its id exactly, as a glob, or as a section prefix ({@code 6.4} matches 6.4.2). */
    public static boolean clauseMatches(final String pattern, final String id) {
        if (pattern.contains("*") || pattern.contains("?")) {
            return glob(pattern).matcher(id).matches();
        }
        return id.equals(pattern) || id.startsWith(pattern + ".");
    }

    /** The runner's globs: {@code *} any run of characters, {@code ?} one, everything else itself. */
    static Pattern glob(final String pattern) {
        final StringBuilder regex = new StringBuilder();
        for (final char c : pattern.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}

package org.mrconf.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.reflect.Method;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.mrconf.cases.Applicability;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.replay.VectorScope;
import org.mrconf.verdict.CaseKind;

/**
 * Which cases a run includes. Every part is optional and they combine with AND; within a part any value matches
 * (OR). A case matches a clause, profile or level part when at least one clause it verifies does.
 *
 * @param clausePatterns clause ids or globs: {@code 6.4.2}, {@code 6.4.*}, or a section prefix {@code 6.4}
 * @param profiles       profiles of the verified clauses
 * @param levels         levels of the verified clauses
 * @param kinds          the case's kind (valid, invalid, inopportune)
 * @param casePatterns   globs over the case id {@code Class.method}, e.g. {@code Integrity*} or {@code *.badCrc*}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Selection(
        List<String> clausePatterns,
        Set<Profile> profiles,
        Set<Level> levels,
        Set<CaseKind> kinds,
        List<String> casePatterns) {
    /** Every case. */
    public static final Selection ALL = new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of());

    public Selection {
        clausePatterns = List.copyOf(clausePatterns);
        profiles = Set.copyOf(profiles);
        levels = Set.copyOf(levels);
        kinds = Set.copyOf(kinds);
        casePatterns = List.copyOf(casePatterns);
    }

    /** Whether the case {@code method} (with id {@code caseId} and kind {@code kind}) is selected. */
    public boolean includes(final Method method, final String caseId, final CaseKind kind) {
        return includes(caseId, Applicability.clausesOf(method), kind);
    }

    /** Whether a test vector (id {@code vector:...}, its sidecar's clauses and kind) is selected. */
    public boolean includesVector(final String caseId, final List<String> clauses, final CaseKind kind) {
        return includes(caseId, clauses, kind);
    }

    /** A case and a vector are selected alike: by the clauses they verify, their kind and their id. */
    private boolean includes(final String caseId, final List<String> clauses, final CaseKind kind) {
        if (!clausePatterns.isEmpty()
                && clauses.stream().noneMatch(id -> clausePatterns.stream().anyMatch(p -> clauseMatches(p, id)))) {
            return false;
        }
        if (!profiles.isEmpty() && catalogued(clauses).map(Clause::profile).noneMatch(profiles::contains)) {
            return false;
        }
        if (!levels.isEmpty() && catalogued(clauses).map(Clause::level).noneMatch(levels::contains)) {
            return false;
        }
        if (!kinds.isEmpty() && !kinds.contains(kind)) {
            return false;
        }
        return casePatterns.isEmpty()
                || casePatterns.stream().anyMatch(p -> glob(p).matcher(caseId).matches());
    }

    /** The catalogue's records of {@code clauses}; an id the catalogue lacks has none. */
    private static Stream<Clause> catalogued(final List<String> clauses) {
        final ClauseCatalogue catalogue = Applicability.catalogue();
        return clauses.stream().map(catalogue::find).flatMap(Optional::stream);
    }

    /** The selection as the reports show it, e.g. {@code clause -> 6.4.*}; empty for {@link #ALL}. */
    public Map<String, String> describe() {
        final Map<String, String> out = new LinkedHashMap<>();
        if (!clausePatterns.isEmpty()) {
            out.put("clause", String.join(",", clausePatterns));
        }
        if (!profiles.isEmpty()) {
            out.put("profile", profiles.stream().map(Profile::specName).sorted().collect(Collectors.joining(",")));
        }
        if (!levels.isEmpty()) {
            out.put("level", levels.stream().map(Level::name).sorted().collect(Collectors.joining(",")));
        }
        if (!kinds.isEmpty()) {
            out.put(
                    "kind",
                    kinds.stream()
                            .map(k -> k.name().toLowerCase(java.util.Locale.ROOT))
                            .sorted()
                            .collect(Collectors.joining(",")));
        }
        if (!casePatterns.isEmpty()) {
            out.put("case", String.join(",", casePatterns));
        }
        return out;
    }

    /** A clause pattern matches its id exactly, as a glob, or as a section prefix ({@code 6.4} matches 6.4.2). */
    static boolean clauseMatches(final String pattern, final String id) {
        return VectorScope.clauseMatches(pattern, id); // one rule, which the vector case's pre-filter uses too
    }

    private static Pattern glob(final String glob) {
        final StringBuilder regex = new StringBuilder();
        for (final char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}

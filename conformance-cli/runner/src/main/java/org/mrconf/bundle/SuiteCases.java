package org.mrconf.bundle;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.junit.platform.commons.annotation.Testable;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;
import org.mrconf.cases.Verifies;

/**
 * The conformance cases of the suite the verifier runs in, read from their {@link Verifies} annotations exactly as
 * the runner finds them (every {@code *Case} class under {@code org.mrconf.cases}, case id
 * {@code SimpleClassName.method}). The verifier compares a bundle's cases with these, so that a case left out of a
 * run or deleted from a report shows.
 */
public final class SuiteCases {
    /** The package the runner discovers cases in. */
    static final String CASES_PACKAGE = "org.mrconf.cases";

    private final List<SuiteCase> cases;

    SuiteCases(final List<SuiteCase> cases) {
        this.cases = List.copyOf(cases);
    }

    /** The cases on this class path, sorted by id. */
    public static SuiteCases discover() {
        final TreeMap<String, SuiteCase> byId = new TreeMap<>();
        for (final Class<?> type : ReflectionSupport.findAllClassesInPackage(
                CASES_PACKAGE, c -> c.getSimpleName().endsWith("Case"), n -> true)) {
            final List<String> typeClauses = clauses(type.getAnnotationsByType(Verifies.class));
            for (final Method method : type.getDeclaredMethods()) {
                if (!AnnotationSupport.isAnnotated(method, Testable.class)) {
                    continue;
                }
                final Set<String> clauses = new LinkedHashSet<>(typeClauses);
                clauses.addAll(clauses(method.getAnnotationsByType(Verifies.class)));
                final String id = type.getSimpleName() + "." + method.getName();
                byId.put(id, new SuiteCase(id, List.copyOf(clauses)));
            }
        }
        return new SuiteCases(new ArrayList<>(byId.values()));
    }

    /** Every case, sorted by id. */
    public List<SuiteCase> all() {
        return cases;
    }

    /** The cases that verify {@code clauseId}. */
    public List<SuiteCase> verifying(final String clauseId) {
        return cases.stream().filter(c -> c.clauses().contains(clauseId)).toList();
    }

    private static List<String> clauses(final Verifies[] annotations) {
        return Arrays.stream(annotations).map(Verifies::value).toList();
    }

    /**
     * One case of the suite.
     *
     * @param id      {@code SimpleClassName.method}, as the run records it
     * @param clauses the clause ids it verifies
     */
    public record SuiteCase(String id, List<String> clauses) {
        public SuiteCase {
            Objects.requireNonNull(id, "id");
            clauses = List.copyOf(clauses);
        }
    }
}

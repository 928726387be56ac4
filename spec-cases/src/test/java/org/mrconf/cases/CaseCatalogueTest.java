package org.mrconf.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;

/**
 * The conformance cases and the clause catalogue agree: every clause a case names exists, every case
 * names at least one clause, and the clause-to-case listing generated from the cases' own annotations
 * matches the committed golden file, so a change in coverage shows in review (as Kubernetes'
 * conformance.yaml does). Regenerate with {@code -Dgolden.update=true}.
 */
class CaseCatalogueTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "clause-coverage.txt");

    @Test
    void shouldBindEveryCaseToClausesOfTheCatalogue() throws Exception {
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final List<Method> cases = caseMethods();
        assertThat(cases).isNotEmpty();
        for (final Method method : cases) {
            final Verifies[] clauses = method.getAnnotationsByType(Verifies.class);
            assertThat(clauses).as("clauses of %s", name(method)).isNotEmpty();
            for (final Verifies clause : clauses) {
                assertThat(catalogue.find(clause.value()))
                        .as("clause %s named by %s", clause.value(), name(method))
                        .isPresent();
            }
        }
    }

    @Test
    void shouldMatchTheCommittedCoverageListing() throws IOException, Exception {
        final String listing = listing(new CatalogueLoader().loadBundled(), caseMethods());
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(GOLDEN, listing, StandardCharsets.UTF_8);
        }
        assertThat(listing)
                .as("regenerate %s with -Dgolden.update=true and review the diff", GOLDEN)
                .isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
    }

    private static String listing(final ClauseCatalogue catalogue, final List<Method> cases) {
        final SortedMap<String, SortedSet<String>> byClause = new TreeMap<>(Clause::compareIds);
        for (final Method method : cases) {
            for (final Verifies clause : method.getAnnotationsByType(Verifies.class)) {
                byClause.computeIfAbsent(clause.value(), k -> new TreeSet<>()).add(name(method));
            }
        }
        final StringBuilder text =
                new StringBuilder("# Clause coverage of the conformance cases (generated; see CaseCatalogueTest)\n");
        for (final Clause clause : catalogue.clauses()) {
            final SortedSet<String> names = byClause.get(clause.id());
            text.append(clause.id())
                    .append(' ')
                    .append(clause.level())
                    .append(' ')
                    .append(names == null ? "-" : String.join(", ", names))
                    .append('\n');
        }
        final long covered = catalogue.clauses().stream()
                .filter(c -> byClause.containsKey(c.id()))
                .count();
        text.append("# ")
                .append(covered)
                .append(" of ")
                .append(catalogue.clauses().size())
                .append(" clauses have a case\n");
        return text.toString();
    }

    private static List<Method> caseMethods() {
        final List<Method> methods = new ArrayList<>();
        for (final Class<?> type : ReflectionSupport.findAllClassesInPackage(
                "org.mrconf.cases", c -> c.getSimpleName().endsWith("Case"), n -> true)) {
            for (final Method method : type.getDeclaredMethods()) {
                if (method.isAnnotationPresent(org.junit.jupiter.api.Test.class)) {
                    methods.add(method);
                }
            }
        }
        methods.sort((a, b) -> name(a).compareTo(name(b)));
        return methods;
    }

    private static String name(final Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}

package org.mrconf.selftest;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;
import org.mrconf.cases.Verifies;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.Clause;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.defect.Defect;

/**
 * The build's proof that the suite catches what it claims to. Every defect of the reference's catalogue runs, in
 * process, against the cases of the clauses it declares, and must make each of those clauses FAIL without any ERROR;
 * the clean reference must pass everything. Every MUST clause of the enforced sections must have a case and a defect
 * that its cases catch, unless it is listed in {@link #UNPROVABLE} with the reason.
 *
 * <p>The per-clause proof is compared with the committed {@code proven-coverage.txt} (regenerate with
 * {@code -Dgolden.update=true}), which {@code CaseCatalogueTest} reads to count a clause as covered only when proven.
 */
class SelfValidationTest {
    /** The spec sections whose every MUST clause must be proven: all of them (sections 1 and 2 hold no clause). */
    static final Set<String> ENFORCED_SECTIONS = Set.of("3", "4", "5", "6", "7", "8", "9", "10", "11", "12");

    /**
     * MUST clauses that have no case yet, and why. The build fails for any other MUST clause without a case, so this
     * list only shrinks.
     */
    static final Map<String, String> NO_CASE_YET = Map.of();

    /**
     * MUST clauses of the enforced sections that the embedded reference cannot prove, and why. Each is still tested
     * against every device that claims it.
     */
    static final Map<String, String> UNPROVABLE = Map.of();

    /**
     * MUST clauses that no defect proves yet: new clauses whose cases (listed in {@link #NO_CASE_YET} until they exist)
     * and defects come in a later wave. This list only shrinks.
     */
    static final Map<String, String> NOT_YET_PROVEN = Map.of();

    /**
     * Defects the cases let through on some clause, and why; each is a known hole in a case, listed so that a new one
     * fails the build. This list only shrinks.
     */
    static final Map<String, String> KNOWN_ESCAPES = Map.of();

    static final Path GOLDEN = Path.of(
            System.getProperty("mrconf.root", "../.."),
            "conformance-cli/runner/src/main/resources/org/mrconf/runner/proven-coverage.txt");

    private static ClauseCatalogue catalogue;
    private static SelfTestReport report;

    @BeforeAll
    static void runEveryDefect() throws Exception {
        catalogue = new CatalogueLoader().loadBundled();
        // The passive analysis of the same defects is proven by AnalyzeSelfValidationTest, not twice. A defect's run
        // stops once each clause it declares has FAILed: the build needs the proof, not the whole matrix (metaroce
        // selftest runs every case of the declared clauses).
        report = new SelfTest(SelfTest.Scope.UNTIL_CAUGHT, 2)
                .withoutAnalyze()
                .run(Arrays.asList(Defect.values()), o -> {});
    }

    @Test
    void shouldPassEveryCaseAgainstTheCleanReference() {
        assertThat(report.clean().results().stream()
                        .filter(r -> r.verdict() == org.mrconf.verdict.Verdict.FAIL)
                        .map(r -> r.caseId() + ": " + r.message())
                        .toList())
                .as("cases failing against the clean reference")
                .isEmpty();
    }

    @Test
    void shouldCatchEveryDefectOnEveryClauseItDeclaresWithoutAnyError() {
        final List<String> problems = new ArrayList<>();
        for (final DefectOutcome outcome : report.outcomes()) {
            if (!outcome.missed().isEmpty() && !KNOWN_ESCAPES.containsKey(outcome.name())) {
                problems.add(outcome.name() + " escapes the cases of " + outcome.missed());
            }
            outcome.errors()
                    .forEach(e -> problems.add(outcome.name() + " makes " + e.caseId() + " ERROR: " + e.message()));
        }
        assertThat(problems).as("defects not caught").isEmpty();
    }

    @Test
    void shouldDeclareOnlyClausesOfTheCatalogue() {
        for (final Defect defect : Defect.values()) {
            for (final String clause : defect.clauses()) {
                assertThat(catalogue.find(clause))
                        .as("clause %s of defect %s", clause, defect.flagName())
                        .isPresent();
            }
        }
    }

    @Test
    void shouldHaveACaseForEveryMustClauseOfTheEnforcedSections() {
        final Set<String> withCase = clausesWithCases();
        assertThat(enforcedMustClauses().stream()
                        .filter(id -> !withCase.contains(id) && !NO_CASE_YET.containsKey(id))
                        .toList())
                .as("MUST clauses of sections %s without a case", new TreeSet<>(ENFORCED_SECTIONS))
                .isEmpty();
    }

    @Test
    void shouldProveEveryMustClauseOfTheEnforcedSectionsWithADefect() {
        final SortedMap<String, SortedSet<String>> proven = report.provenBy();
        assertThat(enforcedMustClauses().stream()
                        .filter(id -> !proven.containsKey(id)
                                && !UNPROVABLE.containsKey(id)
                                && !NOT_YET_PROVEN.containsKey(id))
                        .toList())
                .as("MUST clauses of sections %s that no caught defect proves", new TreeSet<>(ENFORCED_SECTIONS))
                .isEmpty();
    }

    @Test
    void shouldMatchTheCommittedProvenCoverage() throws Exception {
        final String listing = listing();
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(GOLDEN, listing, StandardCharsets.UTF_8);
        }
        assertThat(listing)
                .as("regenerate %s with -Dgolden.update=true and review the diff", GOLDEN)
                .isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
    }

    /** One line per clause: id, level, and the defects that prove its cases ({@code -} for none). */
    private static String listing() {
        final SortedMap<String, SortedSet<String>> proven = report.provenBy();
        final StringBuilder text = new StringBuilder(
                "# Clauses proven by a defect of the reference's catalogue (generated; see SelfValidationTest)\n");
        long count = 0;
        for (final Clause clause : catalogue.clauses()) {
            final SortedSet<String> by = proven.get(clause.id());
            count += by == null ? 0 : 1;
            text.append(clause.id())
                    .append(' ')
                    .append(clause.level())
                    .append(' ')
                    .append(by == null ? "-" : String.join(", ", by))
                    .append('\n');
        }
        text.append("# ")
                .append(count)
                .append(" of ")
                .append(catalogue.clauses().size())
                .append(" clauses proven\n");
        return text.toString();
    }

    private static List<String> enforcedMustClauses() {
        return catalogue.clauses().stream()
                .filter(c -> c.level() == Level.MUST)
                .filter(c -> ENFORCED_SECTIONS.contains(c.id().substring(0, c.id().indexOf('.'))))
                .map(Clause::id)
                .toList();
    }

    private static Set<String> clausesWithCases() {
        final Map<String, Integer> clauses = new TreeMap<>();
        for (final Class<?> type : ReflectionSupport.findAllClassesInPackage(
                "org.mrconf.cases", c -> c.getSimpleName().endsWith("Case"), n -> true)) {
            for (final Method method : type.getDeclaredMethods()) {
                for (final Verifies verifies : method.getAnnotationsByType(Verifies.class)) {
                    clauses.merge(verifies.value(), 1, Integer::sum);
                }
            }
        }
        return clauses.keySet();
    }
}

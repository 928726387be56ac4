package org.mrconf.mutation;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherFactory;
import org.mrconf.cases.Applicability;
import org.mrconf.defect.Defects;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.replay.VectorCorpus;
import org.mrconf.replay.VectorScope;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.selftest.SelfTestVectors;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;
import org.opentest4j.AssertionFailedError;

/**
 * The conformance cases and the test vectors as JUnit tests, so that a mutation tool (PIT, issue 34) can use them to
 * judge a mutant of the reference: one dynamic test per case id and per vector, in each configuration the self-test
 * runs the clean reference in. A test starts its own clean embedded reference ({@link Defects#NONE}) in that
 * configuration, runs its one case or vector against it, and fails when the verdict is FAIL or ERROR. PASS, WARN,
 * INCONCLUSIVE and NOT_APPLICABLE pass: a mutant that only turns a case INCONCLUSIVE survives, and the report says so.
 *
 * <p>The configurations and what runs in each are those of {@code metaroce selftest} on the clean reference: every
 * case and vector in {@link ReferenceConfiguration#STANDARD}; in each other configuration, the cases and vectors of
 * the clauses it exists for (its profile's, and {@link ReferenceConfiguration#clauses()}).
 *
 * <p>PIT names a dynamic test by its unique id, which holds indexes ({@code [dynamic-container:#2]/[dynamic-test:#17]});
 * the order here is fixed (configurations in declaration order, cases then vectors, each sorted by id) and every run
 * writes the index to {@code target/conformance-units.tsv}, so a killing test's id can be read back as a case.
 */
class ConformanceCasesAsTests {
    private static final String CASES_PACKAGE = "org.mrconf.cases";
    private static final String VECTOR_CASE = "VectorCase";

    /** One case id (or {@code vector:<id>}) with the clauses it verifies. */
    record Unit(String id, List<String> clauses, boolean vector) {}

    /** Enumerated once per JVM: PIT runs many mutants in one minion, each re-running this factory to find its test. */
    private static List<Unit> units;

    @TestFactory
    Stream<DynamicNode> conformance() {
        final List<Unit> all = units();
        final Optional<Path> vectors = SelfTestVectors.locate();
        final List<DynamicNode> containers = new ArrayList<>();
        final StringBuilder index = new StringBuilder("container\ttest\tconfiguration\tunit\n");
        int c = 0;
        for (final ReferenceConfiguration configuration : ReferenceConfiguration.values()) {
            c++;
            final Set<String> clauses = clausesOf(configuration);
            final List<DynamicTest> tests = new ArrayList<>();
            int t = 0;
            for (final Unit unit : all) {
                if (configuration != ReferenceConfiguration.STANDARD
                        && unit.clauses().stream().noneMatch(clauses::contains)) {
                    continue;
                }
                t++;
                index.append(c)
                        .append('\t')
                        .append(t)
                        .append('\t')
                        .append(configuration)
                        .append('\t')
                        .append(unit.id())
                        .append('\n');
                tests.add(DynamicTest.dynamicTest(
                        configuration + " " + unit.id(), () -> run(configuration, unit, vectors)));
            }
            containers.add(DynamicContainer.dynamicContainer(configuration.name(), tests));
        }
        writeIndex(index.toString());
        return containers.stream();
    }

    /** Runs one case or vector against a fresh clean reference; fails on FAIL or ERROR. */
    private static void run(final ReferenceConfiguration configuration, final Unit unit, final Optional<Path> vectors)
            throws Exception {
        final Selection selection = new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(unit.id()));
        RunOptions options = RunOptions.defaults()
                .withSelection(selection)
                .withPart(unit.vector() ? RunOptions.Part.VECTORS : RunOptions.Part.CASES);
        if (vectors.isPresent()) {
            options = options.withVectorRoot(vectors.get());
        }
        final List<CaseResult> results;
        try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(Defects.NONE, configuration)) {
            results = CaseRunner.run(reference.device(), options, r -> {});
        }
        final List<CaseResult> bad = results.stream()
                .filter(r -> r.verdict() == Verdict.FAIL || r.verdict() == Verdict.ERROR)
                .toList();
        if (!bad.isEmpty()) {
            throw new AssertionFailedError(bad.stream()
                    .map(r -> r.verdict() + " " + r.caseId() + " [" + configuration + "]: " + r.message())
                    .collect(Collectors.joining("\n")));
        }
        if (results.isEmpty()) {
            throw new AssertionFailedError("no result for " + unit.id() + " [" + configuration + "]");
        }
    }

    /** The clauses a configuration other than the standard one exists for (as {@code SelfTest} picks them). */
    static Set<String> clausesOf(final ReferenceConfiguration configuration) {
        return new HashSet<>(configuration.judgedClauses());
    }

    /** Every case id (class simple name and method, as the runner names them) and every vector, sorted. */
    static synchronized List<Unit> units() {
        if (units == null) {
            final List<Unit> found = new ArrayList<>(cases());
            found.sort(Comparator.comparing(Unit::id));
            final List<Unit> vectorUnits = new ArrayList<>(vectors());
            vectorUnits.sort(Comparator.comparing(Unit::id));
            found.addAll(vectorUnits);
            units = List.copyOf(found);
        }
        return units;
    }

    private static List<Unit> cases() {
        final TestPlan plan = LauncherFactory.create()
                .discover(request()
                        .selectors(selectPackage(CASES_PACKAGE))
                        .filters(includeClassNamePatterns("^(?!.*\\." + VECTOR_CASE + "$).*Case$"))
                        .build());
        final Map<String, Unit> byId = new TreeMap<>();
        final List<TestIdentifier> pending = new ArrayList<>(plan.getRoots());
        while (!pending.isEmpty()) {
            final TestIdentifier identifier = pending.remove(pending.size() - 1);
            pending.addAll(plan.getChildren(identifier));
            identifier
                    .getSource()
                    .filter(MethodSource.class::isInstance)
                    .map(s -> ((MethodSource) s).getJavaMethod())
                    .ifPresent(method -> byId.putIfAbsent(caseId(method), unit(method)));
        }
        return List.copyOf(byId.values());
    }

    private static Unit unit(final Method method) {
        return new Unit(caseId(method), Applicability.clausesOf(method), false);
    }

    private static String caseId(final Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }

    private static List<Unit> vectors() {
        final Optional<Path> root = SelfTestVectors.locate();
        if (root.isEmpty()) {
            return List.of();
        }
        try {
            return VectorCorpus.discover(root.get(), Applicability.catalogue()).vectors().stream()
                    .map(v -> new Unit(
                            VectorScope.CASE_PREFIX + v.id(),
                            List.copyOf(v.sidecar().clauses()),
                            true))
                    .toList();
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeIndex(final String index) {
        try {
            final Path target = Path.of("target");
            if (Files.isDirectory(target)) {
                Files.writeString(target.resolve("conformance-units.tsv"), index);
            }
        } catch (final IOException e) {
            // The index only helps read PIT's report; a run without it is still a run.
        }
    }
}

package org.mrconf.selftest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.embedded.ReferenceConfiguration;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.LanedRun;
import org.mrconf.runner.RunListener;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.RunStop;
import org.mrconf.runner.Selection;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * Runs the conformance cases and the test vectors against the clean embedded reference and against the reference
 * committing each defect, one defect at a time. Runs go on in parallel in this JVM, each on its own thread against its own embedded reference (its
 * own event loop and in-memory link; {@code DutSession} keeps one device per thread), so no child JVM is needed.
 */
public final class SelfTest {
    /** Which cases run against a defect. */
    public enum Scope {
        /** Every case: the matrix shows every clause a defect breaks, collateral included. */
        ALL_CASES,
        /** Only the cases of the clauses the defect declares: enough to prove it is caught, much faster. */
        DECLARED_CLAUSES,
        /**
         * The cases of the declared clauses, but only until each of them has FAILed: the fastest proof that a defect
         * is caught, which the build uses. The cases that would have run after that do not, so an ERROR of theirs goes
         * unseen; {@code metaroce selftest} runs them all.
         */
        UNTIL_CAUGHT
    }

    /** Why a run that has already caught its defect stops (its unstarted cases are dropped, not reported). */
    static final String CAUGHT = "every clause the defect declares has FAILed already";

    private final Scope scope;
    private final int jobs;
    private final boolean analyze;
    private final Optional<Path> vectors;
    /** {@link #otherConfigurations()}, read once: every defect's run looks it up. */
    private final Map<ReferenceConfiguration, List<String>> configurations = otherConfigurations();

    /** A self-test that also replays the test vectors {@link SelfTestVectors#locate()} finds. */
    public SelfTest(final Scope scope, final int jobs) {
        this(scope, jobs, SelfTestVectors.locate(), true);
    }

    /** A self-test replaying the vectors under {@code vectors} too (absent: the cases only). */
    public SelfTest(final Scope scope, final int jobs, final Optional<Path> vectors) {
        this(scope, jobs, vectors, true);
    }

    private SelfTest(final Scope scope, final int jobs, final Optional<Path> vectors, final boolean analyze) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, was " + jobs);
        }
        this.scope = scope;
        this.jobs = jobs;
        this.vectors = vectors;
        this.analyze = analyze;
    }

    /** The same self-test without the passive analysis of captures ({@link AnalyzeSelfTest}), which runs apart. */
    public SelfTest withoutAnalyze() {
        return new SelfTest(scope, jobs, vectors, false);
    }

    /**
     * Runs the clean reference (every case) and then each of {@code defects}; {@code onOutcome} hears each outcome
     * as it finishes (any thread, one at a time).
     */
    public SelfTestReport run(final List<Defect> defects, final Consumer<DefectOutcome> onOutcome) throws Exception {
        final long started = System.nanoTime();
        final DefectOutcome clean = runClean(cleanSelection(defects));
        onOutcome.accept(clean);
        final List<DefectOutcome> outcomes = InParallel.map(
                jobs, "mrconf-selftest", defects, defect -> runOne(defect, selection(defect)), onOutcome);
        // The passive analyser on captures of the same defects (see AnalyzeSelfTest).
        final AnalyzeSelfTestReport analysis = analyze ? new AnalyzeSelfTest(jobs).run(defects) : null;
        return new SelfTestReport(scope, jobs, clean, outcomes, System.nanoTime() - started, vectors, analysis);
    }

    /** Each of {@code defects}, without the clean reference's run (tests of one defect). */
    List<DefectOutcome> runDefects(final List<Defect> defects) throws Exception {
        final List<DefectOutcome> outcomes = new ArrayList<>();
        for (final Defect defect : defects) {
            outcomes.add(runOne(defect, selection(defect)));
        }
        return outcomes;
    }

    private Selection selection(final Defect defect) {
        if (scope == Scope.ALL_CASES) {
            return Selection.ALL;
        }
        return clauses(defect.clauses());
    }

    /**
     * What the clean reference runs: every case for the whole catalogue (or every case, with {@link Scope#ALL_CASES});
     * for a few chosen defects, only the cases of the clauses they declare, the ones whose verdicts prove them.
     */
    private Selection cleanSelection(final List<Defect> defects) {
        if (scope == Scope.ALL_CASES || Set.copyOf(defects).containsAll(List.of(Defect.values()))) {
            return Selection.ALL;
        }
        return clauses(
                defects.stream().flatMap(d -> d.clauses().stream()).distinct().toList());
    }

    /**
     * The clean reference: every case and vector of {@code selection} in its standard configuration (in two lanes with more than one job,
     * as {@code metaroce run} does), then, in each other configuration, the clauses of the profile it exists for
     * (the standard configuration does not claim them); those runs' results replace the standard run's for their
     * cases.
     */
    private DefectOutcome runClean(final Selection selection) throws Exception {
        final long started = System.nanoTime();
        final List<CaseResult> standard;
        try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(Defects.NONE)) {
            if (jobs > 1) {
                try (EmbeddedReferenceDut vectorLane = EmbeddedReferenceDut.start(Defects.NONE)) {
                    standard = LanedRun.run(reference.device(), vectorLane.device(), options(selection), r -> {});
                }
            } else {
                standard = CaseRunner.run(reference.device(), options(selection), r -> {});
            }
        }
        final List<CaseResult> others = new ArrayList<>();
        for (final Map.Entry<ReferenceConfiguration, List<String>> other : configurations.entrySet()) {
            final List<String> judged = other.getValue().stream()
                    .filter(id -> selection == Selection.ALL
                            || selection.clausePatterns().contains(id))
                    .toList();
            if (judged.isEmpty()) {
                continue;
            }
            try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(Defects.NONE, other.getKey())) {
                others.addAll(CaseRunner.run(reference.device(), options(clauses(judged)), r -> {}));
            }
        }
        final List<CaseResult> merged = worstPerCase(others);
        final Set<String> rerun = new HashSet<>();
        merged.forEach(r -> rerun.add(r.caseId()));
        final List<CaseResult> results = new ArrayList<>();
        standard.stream().filter(r -> !rerun.contains(r.caseId())).forEach(results::add);
        results.addAll(merged);
        return DefectOutcome.of(null, results, System.nanoTime() - started);
    }

    /**
     * One defect against the cases and vectors of {@code selection}, in the configurations its clauses need: each one
     * that exists for a clause it breaks (the standard configuration claims neither long-haul nor ipv6, nor carries
     * frames), else the standard one. Run in several, a case keeps its worst result.
     */
    private DefectOutcome runOne(final Defect defect, final Selection selection) throws Exception {
        final long started = System.nanoTime();
        final List<ReferenceConfiguration> needed = configurations.entrySet().stream()
                .filter(e -> defect.clauses().stream().anyMatch(e.getValue()::contains))
                .map(Map.Entry::getKey)
                .toList();
        final List<CaseResult> results = new ArrayList<>();
        final Set<String> failed = new HashSet<>();
        for (final ReferenceConfiguration configuration :
                needed.isEmpty() ? List.of(ReferenceConfiguration.STANDARD) : needed) {
            if (scope == Scope.UNTIL_CAUGHT && failed.containsAll(defect.clauses())) {
                break;
            }
            final RunStop stop = new RunStop();
            final RunListener listener = result -> {
                if (result.verdict() == Verdict.FAIL) {
                    failed.addAll(result.clauses());
                }
                if (scope == Scope.UNTIL_CAUGHT && failed.containsAll(defect.clauses())) {
                    stop.request(CAUGHT);
                }
            };
            try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(Defects.of(defect), configuration)) {
                for (final CaseResult result :
                        CaseRunner.run(reference.device(), options(selection).withStop(stop), listener)) {
                    if (!(result.verdict() == Verdict.ERROR && result.message().contains(CAUGHT))) {
                        results.add(result);
                    }
                }
            }
        }
        return DefectOutcome.of(defect, worstPerCase(results), System.nanoTime() - started);
    }

    /**
     * One result per case, in first-seen order: the worst of its runs in several configurations (NOT_APPLICABLE
     * ranks lowest, so a configuration where the case applies decides).
     */
    static List<CaseResult> worstPerCase(final List<CaseResult> results) {
        final Map<String, CaseResult> worst = new LinkedHashMap<>();
        for (final CaseResult result : results) {
            worst.merge(
                    result.caseId(),
                    result,
                    (kept, next) -> next.verdict().severity() > kept.verdict().severity() ? next : kept);
        }
        return List.copyOf(worst.values());
    }

    private RunOptions options(final Selection selection) {
        final RunOptions options = RunOptions.defaults().withSelection(selection);
        // The vectors are replayed, like the cases, for the selected clauses.
        return vectors.map(options::withVectorRoot).orElse(options);
    }

    /**
     * The configurations beside the standard one, each with the clauses it exists for: those of the profile it claims
     * and the standard one does not, and those only it can judge (clause 4.1.6 where frames travel).
     */
    static Map<ReferenceConfiguration, List<String>> otherConfigurations() {
        final Map<ReferenceConfiguration, List<String>> others = new EnumMap<>(ReferenceConfiguration.class);
        for (final ReferenceConfiguration configuration : ReferenceConfiguration.values()) {
            final List<String> clauses = configuration.judgedClauses();
            if (!clauses.isEmpty()) {
                others.put(configuration, clauses);
            }
        }
        return others;
    }

    private static Selection clauses(final List<String> ids) {
        return new Selection(ids, Set.of(), Set.of(), Set.of(), List.of());
    }
}

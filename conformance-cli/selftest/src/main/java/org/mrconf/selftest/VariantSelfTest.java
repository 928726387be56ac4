package org.mrconf.selftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.mrconf.cases.Applicability;
import org.mrconf.catalogue.Level;
import org.mrconf.embedded.EmbeddedReferenceDut;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.Selection;
import org.mrconf.variant.LegalChoice;
import org.mrconf.variant.Variant;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.Verdict;

/**
 * The mirror image of the defect self-test: runs the cases against each legal variant of the reference
 * ({@link Variant}), each judged by what its {@code hello} declares, and collects what would keep a conforming device
 * from exit 0: a FAIL, an ERROR, or an INCONCLUSIVE on a MUST clause. Target: none.
 *
 * <p>Only the cases of the clauses a variant bears on run ({@link Variant#bearsOn()}). A case that blocks once runs once
 * more on a fresh reference: on a loaded host a timer the case does not control can fire early or late; the outcome
 * keeps the second result and says that the first blocked, so a flaky case stays visible.
 */
public final class VariantSelfTest {
    /** Which cases run against a variant. */
    public enum Scope {
        /** The cases of every clause and section the variant bears on ({@link Variant#bearsOn()}): the full matrix. */
        BEARS_ON,
        /**
         * Only the cases of the clause that leaves a variant's choice open ({@link Variant#clause()}): a quick sample
         * (sampled declarations still run on what they bear on).
         */
        OWN_CLAUSE,
        /** Every case and vector of the suite, whatever the variant bears on: the widest (and slowest) check. */
        ALL_CASES
    }

    private final int jobs;
    private final Scope scope;

    /** A self-test of variants on {@code scope}, {@code jobs} at once (each against its own embedded reference). */
    public VariantSelfTest(final Scope scope, final int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1, was " + jobs);
        }
        this.scope = scope;
        this.jobs = jobs;
    }

    /** Runs each of {@code variants}; {@code onOutcome} hears each outcome as it finishes (one at a time). */
    public List<VariantOutcome> run(
            final List<? extends LegalChoice> variants, final Consumer<VariantOutcome> onOutcome) throws Exception {
        return InParallel.map(
                jobs, "mrconf-variant", variants, variant -> runOne(variant, clausesFor(variant)), onOutcome);
    }

    /** The clauses (ids or section prefixes) whose cases {@code variant} runs on in this scope; empty for all. */
    private List<String> clausesFor(final LegalChoice variant) {
        if (scope == Scope.ALL_CASES) {
            return List.of(); // a selection that names nothing selects every case
        }
        return scope == Scope.BEARS_ON || !(variant instanceof Variant v) ? variant.bearsOn() : List.of(v.clause());
    }

    /** One variant on the cases of {@code clauses} (ids or section prefixes), blocking cases run once more. */
    public static VariantOutcome runOne(final LegalChoice variant, final List<String> clauses) throws Exception {
        final long started = System.nanoTime();
        final List<CaseResult> first = run(variant, new Selection(clauses, Set.of(), Set.of(), Set.of(), List.of()));
        final List<CaseResult> results = new ArrayList<>();
        final List<CaseResult> blockedOnce = new ArrayList<>();
        for (final CaseResult result : first) {
            if (!blocks(result)) {
                results.add(result);
                continue;
            }
            blockedOnce.add(result);
            final List<CaseResult> again =
                    run(variant, new Selection(List.of(), Set.of(), Set.of(), Set.of(), List.of(result.caseId())));
            results.addAll(again.isEmpty() ? List.of(result) : again);
        }
        return new VariantOutcome(variant, results, blockedOnce, System.nanoTime() - started);
    }

    /**
     * Whether {@code choice}, run on the clauses it bears on, is still blocked: the question shrinking asks of each
     * smaller set ({@link DeclarationSampler#shrink}).
     */
    public static boolean stillBlocked(final LegalChoice choice) {
        try {
            return !runOne(choice, choice.bearsOn()).passed();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while shrinking " + choice.label(), e);
        } catch (final Exception e) {
            throw new IllegalStateException("the run of " + choice.label() + " failed: " + e.getMessage(), e);
        }
    }

    private static List<CaseResult> run(final LegalChoice variant, final Selection selection) throws Exception {
        // The vectors of the selected clauses are replayed too, as for the defects (SelfTestVectors), from the
        // repository root and from a module folder alike.
        final RunOptions options = RunOptions.defaults().withSelection(selection);
        try (EmbeddedReferenceDut reference = EmbeddedReferenceDut.start(variant)) {
            return CaseRunner.run(
                    reference.device(),
                    SelfTestVectors.locate().map(options::withVectorRoot).orElse(options),
                    r -> {});
        }
    }

    /**
     * Whether a result keeps a device from exit 0: FAIL, ERROR, or INCONCLUSIVE on a MUST clause (an undecided
     * SHOULD or MAY is reported, not blocking).
     */
    public static boolean blocks(final CaseResult result) {
        return result.verdict() == Verdict.FAIL
                || result.verdict() == Verdict.ERROR
                || (result.verdict() == Verdict.INCONCLUSIVE && onAMustClause(result));
    }

    private static boolean onAMustClause(final CaseResult result) {
        return result.clauses().stream()
                .anyMatch(id -> Applicability.catalogue()
                        .find(id)
                        .map(c -> c.level() == Level.MUST)
                        .orElse(true));
    }

    /**
     * What the cases did against one variant.
     *
     * @param variant     the variant
     * @param results     every case result (a blocking case's second run in place of its first)
     * @param blockedOnce the first results of the cases that blocked and ran again
     * @param durationNs  wall-clock time
     */
    public record VariantOutcome(
            LegalChoice variant, List<CaseResult> results, List<CaseResult> blockedOnce, long durationNs) {
        public VariantOutcome {
            results = List.copyOf(results);
            blockedOnce = List.copyOf(blockedOnce);
        }

        /** The results that keep the variant from exit 0: the variant, a legal device, is falsely failed. */
        public List<CaseResult> blocking() {
            return results.stream().filter(VariantSelfTest::blocks).toList();
        }

        /** The first results of the cases that blocked once and were decided on their rerun (no longer blocking). */
        public List<CaseResult> decidedOnRerun() {
            final List<CaseResult> blocking = blocking();
            return blockedOnce.stream()
                    .filter(first -> blocking.stream().noneMatch(r -> r.caseId().equals(first.caseId())))
                    .toList();
        }

        /** Whether every case the variant bears on let it through (no blocking result). */
        public boolean passed() {
            return blocking().isEmpty();
        }

        /** How many results had each verdict, e.g. {@code 40 PASS, 3 NOT_APPLICABLE}. */
        public String tally() {
            final java.util.Map<Verdict, Long> counts = new java.util.EnumMap<>(Verdict.class);
            results.forEach(r -> counts.merge(r.verdict(), 1L, Long::sum));
            return counts.entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey())
                    .collect(java.util.stream.Collectors.joining(", "));
        }
    }
}

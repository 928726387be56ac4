package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.dut.DeclarationException;
import org.mrconf.selftest.DeclarationSampler;
import org.mrconf.selftest.DefectOutcome;
import org.mrconf.selftest.SelfTest;
import org.mrconf.selftest.SelfTestReport;
import org.mrconf.selftest.SelfTestVectors;
import org.mrconf.selftest.VariantReport;
import org.mrconf.selftest.VariantSelfTest;
import org.mrconf.variant.DeclarationSet;
import org.mrconf.variant.LegalChoice;
import org.mrconf.variant.Variant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce selftest}: proves the suite can catch what it claims to. Runs the cases against the clean embedded
 * reference (everything applicable must pass) and against the reference committing each defect of its catalogue;
 * each defect must make the clauses it declares FAIL, and nothing may ERROR. Prints the defect x failing-clause
 * matrix and writes {@code self-validation.md} and {@code .json}. Exit 1 when self-validation fails.
 */
@Command(
        name = "selftest",
        mixinStandardHelpOptions = true,
        description = {
            "Self-validation: run the suite against the clean reference and against each deliberate defect.",
            "Checks that every defect is caught, and writes reports/self-validation.md and .json."
        })
final class SelftestCommand implements Callable<Integer> {
    @Option(
            names = "--defect",
            split = ",",
            paramLabel = "NAME",
            description =
                    "Only these defects (default: every defect of the catalogue); the clean reference then runs only the cases of their clauses.")
    List<String> defects = new ArrayList<>();

    @Option(
            names = "--all-cases",
            description = "Run every case against every defect, so the matrix shows collateral failures too "
                    + "(default: only the cases of the clauses each defect declares); with --variants, every case "
                    + "against every variant (default: the clauses each variant bears on).")
    boolean allCases;

    @Option(
            names = "--jobs",
            defaultValue = "2",
            paramLabel = "N",
            description = "Runs at once, each against its own embedded reference (default: ${DEFAULT-VALUE}).")
    int jobs;

    @Option(
            names = "--out",
            defaultValue = "reports",
            paramLabel = "DIR",
            description = "Where self-validation.md and .json go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--vectors",
            paramLabel = "DIR",
            description = "The test vectors to replay with the cases (default: the nearest test-vectors folder here"
                    + " or above; none found: the cases only).")
    Path vectors;

    @Option(
            names = "--list",
            description = "List the defect catalogue (each defect's clauses and what it does wrong) and the variant"
                    + " catalogue, and exit.")
    boolean list;

    @Option(
            names = "--variants",
            description = "Run the legal variants of the reference instead of the defects: each takes a choice the"
                    + " draft leaves open and must get no FAIL, ERROR or INCONCLUSIVE on a MUST clause, on every"
                    + " clause it bears on. Writes variants.md to --out (default here: reports/benchmarks).")
    boolean variants;

    @Option(
            names = "--variant",
            split = ",",
            paramLabel = "NAME",
            description = "With --variants: only these variants (default: every variant of the catalogue).")
    List<String> variantNames = new ArrayList<>();

    @Option(
            names = "--declarations",
            paramLabel = "N",
            defaultValue = "0",
            description = "With --variants: also N sets of legal declarations sampled from --seed (windows, ACK policy,"
                    + " timers, decrease factor, utilisation), each run on the clauses it bears on; a blocked set is"
                    + " shrunk to the smallest one still blocked (default: ${DEFAULT-VALUE}).")
    int declarations;

    @Option(
            names = "--shrink",
            paramLabel = "N",
            defaultValue = "3",
            description =
                    "With --declarations: shrink at most the first N blocked sets (each shrink runs up to 16 sets;"
                            + " default: ${DEFAULT-VALUE}).")
    int shrink;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "20261206",
            description = "With --declarations: the seed of the sample (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        if (list) {
            for (final Defect defect : Defect.values()) {
                console.printf("%-40s breaks %s%n", defect.flagName(), String.join(" ", defect.clauses()));
                DefectSentences.of(defect).ifPresent(sentence -> console.printf("    %s%n", sentence));
            }
            for (final Variant variant : Variant.values()) {
                console.printf(
                        "%-40s variant: %s allows it (clause %s)%n",
                        variant.flagName(), variant.freedom(), variant.clause());
            }
            console.flush();
            return 0;
        }
        if (jobs < 1 || jobs > 64) {
            throw new DeclarationException("--jobs", "jobs", "must be 1 to 64, found " + jobs);
        }
        if (variants) {
            return runVariants(console);
        }
        final List<Defect> selected = selected();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final SelfTest.Scope scope = allCases ? SelfTest.Scope.ALL_CASES : SelfTest.Scope.DECLARED_CLAUSES;
        console.printf(
                "Self-test: clean reference%s, then %d defects (%s), %d at once%n",
                defects.isEmpty() || allCases ? "" : " on the chosen defects' clauses", selected.size(), scope, jobs);
        console.flush();
        final Optional<Path> vectorRoot = vectors == null ? SelfTestVectors.locate() : Optional.of(vectors);
        if (vectors != null && !Files.isDirectory(vectors)) {
            throw new DeclarationException("--vectors", "vectors", "is not a folder: " + vectors);
        }
        console.printf("Test vectors: %s%n", vectorRoot.map(Path::toString).orElse("none found (the cases only)"));
        final SelfTestReport report = new SelfTest(scope, jobs, vectorRoot).run(selected, outcome -> {
            console.printf(
                    "%-8s %-38s breaks %-16s failing %s%n",
                    outcome.defect() == null ? (outcome.proven() ? "CLEAN" : "UNCLEAN") : verdict(outcome),
                    outcome.name(),
                    outcome.defect() == null
                            ? "-"
                            : String.join(" ", outcome.defect().clauses()),
                    outcome.failing().isEmpty() ? "-" : String.join(" ", outcome.failing()));
            console.flush();
        });
        final String command = "metaroce selftest" + (allCases ? " --all-cases" : "") + " --jobs " + jobs
                + (vectors == null ? "" : " --vectors " + vectors)
                + (defects.isEmpty() ? "" : " --defect " + String.join(",", defects));
        final String machine = machine();
        Files.createDirectories(out);
        final Path md = out.resolve("self-validation.md");
        final Path json = out.resolve("self-validation.json");
        Files.writeString(md, report.markdown(catalogue, command, machine), StandardCharsets.UTF_8);
        Files.writeString(json, report.json(command, machine), StandardCharsets.UTF_8);
        final long caught =
                report.outcomes().stream().filter(DefectOutcome::proven).count();
        console.printf(
                "%n%d of %d defects caught; clean reference %s; %.1f s. Wrote %s and %s%n",
                caught,
                report.outcomes().size(),
                report.clean().proven() ? "passes" : "DOES NOT PASS",
                report.durationNs() / 1e9,
                md,
                json);
        if (report.analyze() != null) {
            console.printf(
                    "analyze: clean capture %s; %d of %d defects a capture shows caught; %s%n",
                    report.analyze().clean().proven() ? "passes" : "DOES NOT PASS",
                    report.analyze().outcomes().stream()
                            .filter(o -> o.notVisible() == null && o.caught())
                            .count(),
                    report.analyze().outcomes().stream()
                            .filter(o -> o.notVisible() == null)
                            .count(),
                    report.analyze().passed() ? "passes" : "FAILS");
        }
        console.flush();
        return report.passed() ? 0 : 1;
    }

    /** {@code --variants}: every selected variant on every clause it bears on; exit 1 if one is blocked. */
    private int runVariants(final PrintWriter console) throws Exception {
        final List<Variant> selected = new ArrayList<>();
        try {
            for (final String name : variantNames) {
                selected.add(Variant.fromName(name));
            }
        } catch (final IllegalArgumentException e) {
            throw new DeclarationException("--variant", "variant", e.getMessage(), e);
        }
        if (variantNames.isEmpty()) {
            selected.addAll(Arrays.asList(Variant.values()));
        }
        if (declarations < 0 || declarations > 10_000) {
            throw new DeclarationException(
                    "--declarations", "declarations", "must be 0 to 10000, found " + declarations);
        }
        final List<LegalChoice> choices = new ArrayList<>(selected);
        choices.addAll(new DeclarationSampler(seed).sample(declarations));
        console.printf(
                "Self-test of %d legal variants and %d sampled declaration sets (seed %d), %d at once%n",
                selected.size(), declarations, seed, jobs);
        console.flush();
        final long started = System.nanoTime();
        final List<VariantSelfTest.VariantOutcome> outcomes = new VariantSelfTest(
                        allCases ? VariantSelfTest.Scope.ALL_CASES : VariantSelfTest.Scope.BEARS_ON, jobs)
                .run(choices, outcome -> {
                    console.printf(
                            "%-8s %-40s %s%s%n",
                            outcome.passed() ? "PASSES" : "BLOCKED",
                            outcome.variant().label(),
                            outcome.tally(),
                            outcome.passed()
                                    ? ""
                                    : "; blocking: "
                                            + String.join(
                                                    ", ",
                                                    outcome.blocking().stream()
                                                            .map(r -> r.caseId() + " " + r.verdict())
                                                            .toList()));
                    console.flush();
                });
        final List<String> notes = new ArrayList<>();
        int shrunk = 0;
        for (final VariantSelfTest.VariantOutcome outcome : outcomes) {
            if (!outcome.passed() && outcome.variant() instanceof DeclarationSet blocked && shrunk++ < shrink) {
                final DeclarationSet smallest =
                        DeclarationSampler.shrink(blocked, VariantSelfTest::stillBlocked, SHRINK_BUDGET);
                final String note = "`" + blocked.label() + "` is blocked; the smallest set still blocked: `"
                        + smallest.label() + "`";
                notes.add(note);
                console.println(note);
            }
        }
        final VariantSelfTest.Scope scope = allCases ? VariantSelfTest.Scope.ALL_CASES : VariantSelfTest.Scope.BEARS_ON;
        final String command = "metaroce selftest --variants" + (allCases ? " --all-cases" : "") + " --jobs " + jobs
                + (variantNames.isEmpty() ? "" : " --variant " + String.join(",", variantNames))
                + (declarations == 0 ? "" : " --declarations " + declarations + " --seed " + seed)
                + (outGiven() ? " --out " + out : "");
        final Path folder = outGiven() ? out : Path.of("reports", "benchmarks");
        Files.createDirectories(folder);
        final Path md = folder.resolve("variants.md");
        Files.writeString(
                md, VariantReport.markdown(outcomes, scope, command, machine(), notes), StandardCharsets.UTF_8);
        final long passed =
                outcomes.stream().filter(VariantSelfTest.VariantOutcome::passed).count();
        console.printf(
                "%n%d of %d variants and declaration sets pass; %.1f s. Wrote %s%n",
                passed, outcomes.size(), (System.nanoTime() - started) / 1e9, md);
        console.flush();
        return passed == outcomes.size() ? 0 : 1;
    }

    /** Most declaration sets tried while shrinking one that is blocked. */
    private static final int SHRINK_BUDGET = 16;

    /** Whether {@code --out} was given (its default, reports, is the defects' folder). */
    private boolean outGiven() {
        return spec.commandLine().getParseResult().hasMatchedOption("--out");
    }

    private List<Defect> selected() throws DeclarationException {
        if (defects.isEmpty()) {
            return Arrays.asList(Defect.values());
        }
        try {
            return new ArrayList<>(Defects.parse(String.join(",", defects)).active());
        } catch (final IllegalArgumentException e) {
            throw new DeclarationException("--defect", "defect", e.getMessage(), e);
        }
    }

    private static String verdict(final DefectOutcome outcome) {
        if (!outcome.errors().isEmpty()) {
            return "ERROR";
        }
        return outcome.proven() ? "CAUGHT" : "MISSED";
    }

    /** The machine, for the report: processors, JVM and OS. */
    static String machine() {
        return Runtime.getRuntime().availableProcessors() + " processors, Java " + System.getProperty("java.version")
                + ", " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}

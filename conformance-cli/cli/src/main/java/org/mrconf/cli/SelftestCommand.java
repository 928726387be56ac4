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
import org.mrconf.dut.DutProfileException;
import org.mrconf.selftest.DefectOutcome;
import org.mrconf.selftest.SelfTest;
import org.mrconf.selftest.SelfTestReport;
import org.mrconf.selftest.SelfTestVectors;
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
            "Self-validation: run the suite against the clean reference and against each deliberate defect,",
            "check every defect is caught, and write reports/self-validation.md and .json."
        })
final class SelftestCommand implements Callable<Integer> {
    @Option(
            names = "--defect",
            split = ",",
            paramLabel = "NAME",
            description = "Only these defects (default: every defect of the catalogue).")
    List<String> defects = new ArrayList<>();

    @Option(
            names = "--all-cases",
            description = "Run every case against every defect, so the matrix shows collateral failures too "
                    + "(default: only the cases of the clauses each defect declares).")
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

    @Option(names = "--list", description = "List the defect catalogue and exit.")
    boolean list;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        if (list) {
            for (final Defect defect : Defect.values()) {
                console.printf("%-40s breaks %s%n", defect.flagName(), String.join(" ", defect.clauses()));
            }
            console.flush();
            return 0;
        }
        if (jobs < 1 || jobs > 64) {
            throw new DutProfileException("--jobs", "jobs", "must be 1 to 64, found " + jobs);
        }
        final List<Defect> selected = selected();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final SelfTest.Scope scope = allCases ? SelfTest.Scope.ALL_CASES : SelfTest.Scope.DECLARED_CLAUSES;
        console.printf("Self-test: clean reference, then %d defects (%s), %d at once%n", selected.size(), scope, jobs);
        console.flush();
        final Optional<Path> vectorRoot = vectors == null ? SelfTestVectors.locate() : Optional.of(vectors);
        if (vectors != null && !Files.isDirectory(vectors)) {
            throw new DutProfileException("--vectors", "vectors", "is not a folder: " + vectors);
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

    private List<Defect> selected() throws DutProfileException {
        if (defects.isEmpty()) {
            return Arrays.asList(Defect.values());
        }
        try {
            return new ArrayList<>(Defects.parse(String.join(",", defects)).active());
        } catch (final IllegalArgumentException e) {
            throw new DutProfileException("--defect", "defect", e.getMessage(), e);
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

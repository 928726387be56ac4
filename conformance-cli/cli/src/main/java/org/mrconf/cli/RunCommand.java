package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.catalogue.Level;
import org.mrconf.catalogue.Profile;
import org.mrconf.devices.OpenDevice;
import org.mrconf.dut.DutInfo;
import org.mrconf.files.UserFiles;
import org.mrconf.report.ReportWriters;
import org.mrconf.report.Terminal;
import org.mrconf.runner.BuildInfo;
import org.mrconf.runner.ConformanceRun;
import org.mrconf.runner.LivenessProbe;
import org.mrconf.runner.NoCasesSelected;
import org.mrconf.runner.ProvenCoverage;
import org.mrconf.runner.ReportSink;
import org.mrconf.runner.RunFolders;
import org.mrconf.runner.RunJournal;
import org.mrconf.runner.RunOptions;
import org.mrconf.runner.RunStop;
import org.mrconf.runner.Selection;
import org.mrconf.verdict.CaseKind;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce run}: runs the selected conformance cases against a device, prints one verdict per case with the
 * clauses it verifies (and the whole reason of any that did not pass), and writes the reports into the run folder
 * after every case, so that an interrupted run still leaves them. Exit codes: 0 every applicable MUST clause passed
 * (a PASS (partial), with a test purpose the link or configuration could not carry, counts as passed),
 * 1 a clause failed (or a MUST clause is inconclusive), 2 bad usage or input, 3 a harness error or the device lost.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the conformance cases against a device under test and write the reports into a run folder.",
            "Without --dut the embedded reference is tested (in memory, nothing on the network)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every applicable MUST clause passed (a PASS (partial) counts: see docs/running.md)",
            "1:a clause failed, or a MUST clause is inconclusive",
            "2:bad usage or input (including a selection that matches no case)",
            "3:a harness error, or the device was lost"
        })
final class RunCommand implements Callable<Integer> {
    /** The report parameter that says a run used two lanes. */
    static final String LANES_PARAMETER = "lanes";

    @Option(
            names = "--dut",
            paramLabel = "TARGET",
            description = {
                "The device (default: the embedded reference), one of these forms.",
                "reference: the embedded reference, in memory in this process.",
                "reference?defect=NAME[,NAME]: the embedded reference committing deliberate defects.",
                "reference?config=NAME: the embedded reference in another configuration (long-haul, ipv6, frames,"
                        + " core, reorder or capped-window).",
                "reference?variant=NAME: the embedded reference taking a legal variant, a choice the draft leaves open"
                        + " (selftest --list names them).",
                "udp://HOST:PORT[?control=P&token=T]: a soft DUT or NIC agent over UDP, its control agent on PORT + 1"
                        + " unless control= says otherwise.",
                "iface:NAME[?dut=IP&tester=IP&control=P&token=T]: a device on the Ethernet interface NAME, over raw"
                        + " frames.",
                "FILE: a device declaration JSON file (./metaroce declaration new writes a template)."
            })
    String target;

    @Option(
            names = "--clause",
            split = ",",
            paramLabel = "PATTERN",
            description = "Only cases verifying a matching clause: 6.4.2, 6.4.* or a section such as 6.4.")
    List<String> clauses = new ArrayList<>();

    @Option(
            names = "--profile",
            split = ",",
            paramLabel = "PROFILE",
            description = "Only cases verifying a clause of these profiles: ${COMPLETION-CANDIDATES}.",
            converter = ProfileConverter.class)
    List<Profile> profiles = new ArrayList<>();

    @Option(
            names = "--level",
            split = ",",
            paramLabel = "LEVEL",
            description = "Only cases verifying a clause of these levels: ${COMPLETION-CANDIDATES}.")
    List<Level> levels = new ArrayList<>();

    @Option(
            names = "--kind",
            split = ",",
            paramLabel = "KIND",
            description = "Only cases of these kinds: valid, invalid, inopportune.",
            converter = KindConverter.class)
    List<CaseKind> kinds = new ArrayList<>();

    @Option(
            names = "--case",
            split = ",",
            paramLabel = "PATTERN",
            description =
                    "Only cases whose id (Class.method) matches, e.g. 'Integrity*' or '*.badCrc*'; test vectors by"
                            + " 'vector:' and their folder, e.g. 'vector:*' (every vector, no case) or 'vector:7.4.*'.")
    List<String> cases = new ArrayList<>();

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "The run folder for the reports (default: reports/runs/<UTC time>-<dut>/).")
    Path out;

    @Option(
            names = "--jobs",
            defaultValue = "2",
            paramLabel = "N",
            description = {
                "2 (default): against the embedded reference, replay the test vectors on a second instance of it"
                        + " while the cases run on the first; 1: everything in one lane.",
                "A device outside this JVM has one state, so its run is always one lane."
            })
    int jobs;

    @Option(
            names = "--quiet",
            description = "Print only the verdicts that are not PASS or NOT_APPLICABLE, and the summary (for CI).")
    boolean quiet;

    @Spec
    CommandSpec spec;

    /** The id prefix of a test vector's result. */
    private static final String VECTOR_PREFIX = "vector:";

    /** The report writers; tests and the stability benchmark replace them. */
    ReportSink reports = ReportWriters::writeAll;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Selection selection =
                new Selection(clauses, Set.copyOf(profiles), Set.copyOf(levels), Set.copyOf(kinds), cases);
        if (jobs < 1 || jobs > 2) {
            throw new ParameterException(spec.commandLine(), "--jobs must be 1 or 2, found " + jobs);
        }
        if (out != null) {
            UserFiles.makeFolder(out, "the run folder"); // before the device is opened: bad input is exit 2
        }
        DutForms.requireFileOrShortcut(target);
        final Path runDir = out != null ? out : RunFolders.defaultFor(target, Clock.systemUTC());
        final boolean verbose = spec.root().userObject() instanceof MetaroceCommand root && root.verbose;
        try (DeviceLog deviceLog = DeviceLog.capture(runDir.resolve(DeviceLog.FILE_NAME), verbose)) {
            final int exit = run(console, catalogue, selection, runDir);
            if (deviceLog.written()) {
                console.printf(
                        "Device log: %s (the device's own log lines%s)%n",
                        deviceLog.file(), verbose ? ", also shown above" : "; --verbose shows them here too");
                console.flush();
            }
            return exit;
        }
    }

    private int run(
            final PrintWriter console, final ClauseCatalogue catalogue, final Selection selection, final Path runDir)
            throws Exception {
        try (OpenDevice opened = OpenDevice.open(target);
                OpenDevice vectorLane = jobs > 1 ? opened.twin().orElse(null) : null) {
            final DutInfo info = opened.device().control().hello();
            final Optional<String> disagreement = opened.device().profile().claimsDisagreement(info);
            console.printf(
                    "Device: %s: %s %s, firmware %s, declares %s%n",
                    opened.device().name(),
                    info.implementation().vendor(),
                    info.implementation().model(),
                    info.implementation().firmware(),
                    opened.device().profile().conformance().profiles().stream()
                            .map(Profile::specName)
                            .sorted()
                            .toList());
            if (opened.declaredByHello()) {
                console.println(
                        "Declarations: from the device's hello (no declaration file given, spec clause 12.1.5)");
            }
            disagreement.ifPresent(d -> console.println("Warning: " + d));
            if (info.hasDefects()) {
                console.printf(
                        "DELIBERATE DEFECTS (hello): %s: this device is not conformant by design%n", info.defects());
            }
            console.printf("Spec: %s %s (not Meta's specification)%n", catalogue.spec(), catalogue.specVersion());
            final String dutName = target == null ? "embedded reference" : target;
            Files.createDirectories(runDir);
            console.printf("Reports: %s%n%n", runDir);
            console.flush();
            final RunJournal journal = new RunJournal(
                    BuildInfo.current(),
                    catalogue,
                    commandLine(),
                    lanes(RunJournal.describe(dutName, opened.device().profile(), Optional.of(info)), vectorLane),
                    selection.describe());
            final ConsoleListener printer = new ConsoleListener(console, quiet, System.console() != null);
            final ConformanceRun.Outcome outcome;
            try {
                outcome = ConformanceRun.of(opened.device(), journal, runDir)
                        .options(new RunOptions(selection, liveness(opened), new RunStop()))
                        .vectorLane(Optional.ofNullable(vectorLane).map(OpenDevice::device))
                        .reports(reports)
                        .control(opened.controlEndpoint())
                        .notices(line -> {
                            console.println(line);
                            console.flush();
                        })
                        .run(printer);
            } catch (final NoCasesSelected e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            return summarize(console, catalogue, outcome, runDir);
        }
    }

    private static int summarize(
            final PrintWriter console,
            final ClauseCatalogue catalogue,
            final ConformanceRun.Outcome outcome,
            final Path runDir) {
        final List<ClauseResult> clauseResults = outcome.record().clauses();
        final List<CaseResult> results = outcome.results();
        // A clause counts as covered only when self-validation proves that its cases can catch a defect that breaks
        // it: a property of this build of the suite, whatever the device.
        final Set<String> proven = ProvenCoverage.clauses();
        final long vectors = results.stream()
                .filter(r -> r.caseId().startsWith(VECTOR_PREFIX))
                .count();
        final long cases = results.size() - vectors;
        // One count model: every result (case or vector) counted once, under exactly one verdict.
        console.printf(
                "%nResults: %d (%d %s, %d %s): %d passed, %d failed, %d warned, %d inconclusive, %d not applicable,"
                        + " %d error%n",
                results.size(),
                cases,
                cases == 1 ? "case" : "cases",
                vectors,
                vectors == 1 ? "vector" : "vectors",
                countResults(results, Verdict.PASS),
                countResults(results, Verdict.FAIL),
                countResults(results, Verdict.WARN),
                countResults(results, Verdict.INCONCLUSIVE),
                countResults(results, Verdict.NOT_APPLICABLE),
                countResults(results, Verdict.ERROR));
        console.printf(
                "%d of %d clauses exercised by the %d %s and %d %s%n",
                clauseResults.stream()
                        .filter(c -> c.verdict() != Verdict.NOT_APPLICABLE)
                        .count(),
                catalogue.clauses().size(),
                cases,
                cases == 1 ? "case" : "cases",
                vectors,
                vectors == 1 ? "vector" : "vectors");
        console.printf(
                "Covered: %d clauses (a defect of metaroce selftest proves their cases can catch it)%n",
                clauseResults.stream()
                        .filter(c -> c.verdict() != Verdict.NOT_APPLICABLE && proven.contains(c.clauseId()))
                        .count());
        console.printf(
                "Clauses: %d passed, %d failed, %d warned, %d inconclusive, %d not applicable, %d error%n",
                count(clauseResults, Verdict.PASS),
                count(clauseResults, Verdict.FAIL),
                count(clauseResults, Verdict.WARN),
                count(clauseResults, Verdict.INCONCLUSIVE),
                count(clauseResults, Verdict.NOT_APPLICABLE),
                count(clauseResults, Verdict.ERROR));
        // A PASS with a test purpose not exercised is partial: never a plain PASS, never a failure (exit code).
        final List<ClauseResult> notFully =
                clauseResults.stream().filter(ClauseResult::notFullyExercised).toList();
        if (!notFully.isEmpty()) {
            console.printf(
                    "Not fully exercised: %d clauses (%d PASS or WARN (partial), %d NOT_APPLICABLE (not exercised));"
                            + " not a failure: a run over a link or configuration that carries these cases exercises"
                            + " them%n",
                    notFully.size(),
                    notFully.stream().filter(ClauseResult::partial).count(),
                    notFully.stream().filter(ClauseResult::unexercised).count());
            for (final ClauseResult c : notFully) {
                console.printf(
                        "  %s %s (%s, %s): not exercised: %s%n",
                        Terminal.safe(c.clauseId()),
                        c.label(),
                        Terminal.safe(c.level()),
                        Terminal.safe(c.profile()),
                        Terminal.safe(c.notExercisedSummary()));
            }
        }
        undecided(console, clauseResults, results, Verdict.FAIL, "Failed clauses");
        undecided(console, clauseResults, results, Verdict.ERROR, "Clauses in error (the harness, not the device)");
        undecided(console, clauseResults, results, Verdict.INCONCLUSIVE, "Inconclusive clauses");
        console.printf("Reports written to %s%n", runDir);
        // The closing line, as JUnit XML counts: WARN passes, FAIL and ERROR fail, INCONCLUSIVE and NOT_APPLICABLE
        // are skipped; the three add up to the results above.
        console.printf(
                "%d passed, %d failed, %d skipped%n",
                countResults(results, Verdict.PASS) + countResults(results, Verdict.WARN),
                countResults(results, Verdict.FAIL) + countResults(results, Verdict.ERROR),
                countResults(results, Verdict.INCONCLUSIVE) + countResults(results, Verdict.NOT_APPLICABLE));
        console.flush();
        return outcome.exitCode();
    }

    private static long count(final List<ClauseResult> clauses, final Verdict verdict) {
        return clauses.stream().filter(c -> c.verdict() == verdict).count();
    }

    private static long countResults(final List<CaseResult> results, final Verdict verdict) {
        return results.stream().filter(r -> r.verdict() == verdict).count();
    }

    /**
     * The first line of a reason that says something: a vector's message opens with its id and clauses
     * ({@code vector 3.1.2/loss-on-one-path-leaves-the-other (clauses 3.1.2):}), which the line above already names.
     */
    static String reasonLine(final String message) {
        return message.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !VECTOR_HEADER.matcher(l).matches())
                .findFirst()
                .orElse("");
    }

    private static final java.util.regex.Pattern VECTOR_HEADER =
            java.util.regex.Pattern.compile("vector \\S+ \\(clauses [^)]*\\):");

    /**
     * The clauses with {@code verdict}, each with the cases and vectors that gave it and the first line of their
     * reason: what a reader of a failing run needs at the end, without scrolling back through the verdicts.
     */
    private static void undecided(
            final PrintWriter console,
            final List<ClauseResult> clauses,
            final List<CaseResult> results,
            final Verdict verdict,
            final String title) {
        final List<ClauseResult> these =
                clauses.stream().filter(c -> c.verdict() == verdict).toList();
        if (these.isEmpty()) {
            return;
        }
        final Map<String, CaseResult> byId = new java.util.HashMap<>();
        results.forEach(r -> byId.put(r.caseId(), r));
        console.printf("%s: %d%n", title, these.size());
        for (final ClauseResult c : these) {
            console.printf(
                    "  %s (%s, %s)%n",
                    Terminal.safe(c.clauseId()), Terminal.safe(c.level()), Terminal.safe(c.profile()));
            for (final String id : c.caseIds()) {
                final CaseResult r = byId.get(id);
                if (r != null && r.verdict() == verdict) {
                    console.printf("    %s: %s%n", Terminal.safe(id), Terminal.safe(reasonLine(r.message())));
                }
            }
        }
    }

    /** The device as the reports name it, saying when the vectors ran on a second instance of it (two lanes). */
    static RunRecord.DutDescription lanes(final RunRecord.DutDescription dut, final OpenDevice vectorLane) {
        return vectorLane == null
                ? dut
                : dut.withParameter(
                        LANES_PARAMETER,
                        "2: the test vectors ran on a second instance of the embedded reference (same defects and"
                                + " declarations) while the cases ran on the first");
    }

    private static LivenessProbe liveness(final OpenDevice opened) {
        return opened.controlEndpoint()
                .map(endpoint -> LivenessProbe.helloOn(endpoint, LivenessProbe.DEFAULT_TIMEOUT))
                .orElse(LivenessProbe.alwaysAlive());
    }

    private String commandLine() {
        final List<String> args = spec.commandLine().getParseResult() == null
                ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        // The parse result holds the whole command line, the subcommand's name included.
        final List<String> words = new ArrayList<>(args);
        if (words.isEmpty() || !words.get(0).equals(spec.name())) {
            words.add(0, spec.name());
        }
        return "metaroce " + String.join(" ", words);
    }

    /** Profiles by their spec names (long-haul, not LONG_HAUL). */
    static final class ProfileConverter implements picocli.CommandLine.ITypeConverter<Profile> {
        @Override
        public Profile convert(final String value) {
            try {
                return Profile.fromSpecName(value.strip().toLowerCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Kinds in lower case, as the reports print them. */
    static final class KindConverter implements picocli.CommandLine.ITypeConverter<CaseKind> {
        @Override
        public CaseKind convert(final String value) {
            try {
                return CaseKind.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(
                        "unknown kind '" + value + "', expected one of valid, invalid, inopportune");
            }
        }
    }
}

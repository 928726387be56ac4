package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.devices.OpenDevice;
import org.mrconf.dut.DutInfo;
import org.mrconf.explore.Explorer;
import org.mrconf.explore.Program;
import org.mrconf.files.UserFiles;
import org.mrconf.runner.BuildInfo;
import org.mrconf.runner.RunFolders;
import org.mrconf.runner.RunJournal;
import org.mrconf.verdict.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce explore}: seeded random legal programs against a device, each violation shrunk into a test vector.
 * Exit 1 when a violation reproduced after shrinking (FAIL).
 */
@Command(
        name = "explore",
        mixinStandardHelpOptions = true,
        description = {
            "Run seeded random legal programs (WRITE, WRITE_WITH_IMMEDIATE, SEND into posted receives, READ either way, on"
                    + " random streams"
                    + " and paths, with loss, reordering, duplication and CE marks) against a device, judge every packet"
                    + " it sends by analyze's checks and its end state by the program, and shrink a violation into a test"
                    + " vector that replays.",
            "A violation is FAIL only when the shrunk program showed it again on every run; otherwise INCONCLUSIVE with"
                    + " its seed."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no violation reproduced",
            "1:a violation reproduced after shrinking (FAIL)",
            "2:bad usage or input",
            "3:a harness error, or the device was lost"
        })
final class ExploreCommand implements Callable<Integer> {
    @Option(
            names = "--dut",
            paramLabel = "TARGET",
            description = "The device, as for run (default: the embedded reference); e.g. 'reference?defect=NAME',"
                    + " 'reference?variant=NAME', udp://HOST:PORT.")
    String target;

    @Option(
            names = "--minutes",
            defaultValue = "1",
            paramLabel = "N",
            description = "How long to explore, in minutes (fractions allowed; default ${DEFAULT-VALUE}).")
    double minutes;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "The seed (default: from the clock, printed so the exploration can be repeated).")
    Long seed;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "The folder for the reports, the vectors and the findings (default:"
                    + " reports/runs/explore-<UTC time>-<dut>/).")
    Path out;

    @Option(
            names = "--stop-at-first",
            description = "Stop at the first violation that reproduced (a benchmark measures the time to it).")
    boolean stopAtFirst;

    @Option(
            names = "--shrink-seconds",
            defaultValue = "90",
            paramLabel = "N",
            description = "How long the shrinking of one finding may take, in seconds (default ${DEFAULT-VALUE}).")
    int shrinkSeconds;

    @Option(
            names = "--program",
            paramLabel = "SEED",
            description = "Only print the program that SEED draws for this device, as JSON, and exit.")
    Long program;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        if (!(minutes > 0) || minutes > 24 * 60) {
            throw new ParameterException(spec.commandLine(), "--minutes must be above 0 and at most 1440: " + minutes);
        }
        if (shrinkSeconds < 1 || shrinkSeconds > 3600) {
            throw new ParameterException(spec.commandLine(), "--shrink-seconds must be 1 to 3600: " + shrinkSeconds);
        }
        if (out != null) {
            UserFiles.makeFolder(out, "the explore folder");
        }
        DutForms.requireFileOrShortcut(target);
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Clock clock = Clock.systemUTC();
        final long chosen = seed != null ? seed : clock.millis();
        final Path folder = out != null
                ? out
                : RunFolders.defaultFor(target, clock)
                        .resolveSibling("explore-"
                                + RunFolders.defaultFor(target, clock).getFileName());
        try (OpenDevice opened = OpenDevice.open(target == null ? "reference" : target)) {
            final DutInfo info = opened.device().control().hello();
            final Explorer explorer = new Explorer(opened.device(), catalogue, clock, folder, listener(console))
                    .stopAtFirst(stopAtFirst)
                    .shrinkBudget(120, Duration.ofSeconds(shrinkSeconds));
            if (program != null) {
                final Program drawn = explorer.draw(program);
                console.println(new com.fasterxml.jackson.databind.ObjectMapper()
                        .writerWithDefaultPrettyPrinter()
                        .writeValueAsString(drawn));
                console.flush();
                return 0;
            }
            if (info.hasDefects()) {
                console.printf(
                        "DELIBERATE DEFECTS (hello): %s: this device is not conformant by design%n", info.defects());
            }
            console.printf(
                    "Exploring %s for %s min from seed %d; judged clauses %s%nOutput: %s%n",
                    opened.device().name(), minutes, chosen, explorer.judgedClauses(), folder);
            console.flush();
            final Explorer.Result result = explorer.explore(chosen, Duration.ofMillis(Math.round(minutes * 60_000)));
            final BuildInfo build = BuildInfo.current();
            Explorer.writeReports(
                    folder,
                    explorer.record(
                            result,
                            build.version(),
                            build.commit(),
                            "metaroce explore "
                                    + String.join(
                                            " ",
                                            spec.commandLine().getParseResult().originalArgs()),
                            RunJournal.describe(
                                    target == null ? "embedded reference" : target,
                                    opened.device().profile(),
                                    Optional.of(info))));
            final long failed = result.findings().stream()
                    .filter(f -> f.verdict() == Verdict.FAIL)
                    .count();
            console.printf(
                    "%n%d programs in %.1f s from seed %d: %d violation(s) reproduced after shrinking, %d inconclusive"
                            + " finding(s), %d program(s) the replay could not judge%nReports: %s%n",
                    result.programs(),
                    result.elapsed().toMillis() / 1000.0,
                    result.seed(),
                    failed,
                    result.findings().size() - failed,
                    result.inconclusive().size(),
                    folder);
            if (failed > 0) {
                console.printf(
                        "Vectors: %s (check: metaroce vectors verify --root %s; replay: java -Dmetaroce.vectors=%s -jar"
                                + " metaroce.jar run --dut ... --case 'vector:*')%n",
                        explorer.vectorRoot(), explorer.vectorRoot(), explorer.vectorRoot());
            }
            console.flush();
            return failed > 0 ? 1 : 0;
        }
    }

    private static Explorer.Listener listener(final PrintWriter console) {
        return new Explorer.Listener() {
            @Override
            public void program(
                    final int number, final Program program, final org.mrconf.explore.Trial.Outcome outcome) {}

            @Override
            public void finding(final Explorer.Finding finding) {
                console.printf(
                        "%s %s seed %d after %.1f s: %s%n    shrunk in %d runs (%.1f s) to %s; reproduced %d of 3 (%.1f s)%s%n",
                        finding.verdict(),
                        finding.clauses(),
                        finding.seed(),
                        finding.foundAfter().toMillis() / 1000.0,
                        finding.what(),
                        finding.shrinkRuns(),
                        finding.shrinkTook().toMillis() / 1000.0,
                        finding.shrunk().summary(),
                        finding.reproduced(),
                        finding.reproductionTook().toMillis() / 1000.0,
                        finding.vector().map(v -> "; vector " + v).orElse(""));
                console.flush();
            }
        };
    }
}

package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.mrconf.report.JsonReportReader;
import org.mrconf.report.ReportInputException;
import org.mrconf.report.ReportSchemas;
import org.mrconf.report.ReportWriters;
import org.mrconf.report.RunFolderCheck;
import org.mrconf.report.Terminal;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce report show|html|validate RUN_DIR}: reads the report files a run left in its folder. Bad input
 * (no such folder, a missing or unreadable file) is one line naming the file and exit code 2.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = "Show, rebuild or validate the report files of a conformance run folder.",
        subcommands = {ReportCommand.Show.class, ReportCommand.Html.class, ReportCommand.Validate.class})
final class ReportCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Prints one line for input the user has to fix and returns exit code 2. */
    private static int badInput(final CommandSpec spec, final ReportInputException e) {
        final PrintWriter err = spec.commandLine().getErr();
        err.println("metaroce: " + Terminal.safe(e.getMessage()));
        err.flush();
        return MetaroceCommand.EXIT_BAD_INPUT;
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Print the run's summary and every clause that did not pass, with its evidence.")
    static final class Show implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR", description = "The run folder (holds report.json).")
        Path runDir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            final RunRecord record;
            try {
                record = JsonReportReader.read(runDir.resolve(ReportWriters.REPORT_JSON));
            } catch (ReportInputException e) {
                return badInput(spec, e);
            }
            print(spec.commandLine().getOut(), record);
            return 0;
        }

        static void print(final PrintWriter out, final RunRecord r) {
            final RunRecord.DutDescription dut = r.dut();
            final String status =
                    r.interrupted() ? "INTERRUPTED" : r.finishedAt().isPresent() ? "complete" : "NOT FINISHED";
            out.printf(
                    "Device:  %s %s (%s), firmware %s, driver %s, link %s%n",
                    s(dut.vendor()), s(dut.model()), s(dut.name()), s(dut.firmware()), s(dut.driver()), s(dut.link()));
            out.printf(
                    "Claims:  %s%n",
                    String.join(
                            ", ", dut.profiles().stream().map(ReportCommand::s).toList()));
            out.printf(
                    "Spec:    MetaRoCE Open Draft %s (not Meta's specification); suite %s, commit %s%n",
                    s(r.specVersion()), s(r.suiteVersion()), s(r.suiteCommit()));
            out.printf(
                    "Run:     %s, started %s, finished %s%n",
                    status, r.startedAt(), r.finishedAt().map(Object::toString).orElse("-"));
            out.printf("Command: %s%n%n", s(r.commandLine()));
            out.printf(
                    "Clauses: %s%n",
                    counts(r.clauses().stream().map(ClauseResult::verdict).toList()));
            out.printf(
                    "Cases:   %s%n",
                    counts(r.cases().stream().map(CaseResult::verdict).toList()));

            final Map<String, CaseResult> cases = new LinkedHashMap<>();
            r.cases().forEach(c -> cases.put(c.caseId(), c));
            boolean header = false;
            for (final ClauseResult c : r.clauses()) {
                if (c.verdict() == Verdict.PASS || c.verdict() == Verdict.NOT_APPLICABLE) {
                    continue;
                }
                if (!header) {
                    out.printf("%nClauses that did not pass:%n");
                    header = true;
                }
                out.printf(
                        "%n%-12s %s %s (%s, %s)%n",
                        c.verdict(), s(c.clauseId()), s(c.title()), s(c.level()), s(c.profile()));
                for (final String id : c.caseIds()) {
                    final CaseResult cr = cases.get(id);
                    if (cr == null || cr.verdict() == Verdict.PASS) {
                        continue;
                    }
                    out.printf("  %s %s%n", cr.verdict(), s(cr.caseId()));
                    cr.message().lines().forEach(l -> out.printf("      %s%n", s(l)));
                    if (!cr.evidence().expected().isEmpty()
                            || !cr.evidence().actual().isEmpty()) {
                        out.printf(
                                "      expected: %s%n      actual:   %s%n",
                                s(cr.evidence().expected()), s(cr.evidence().actual()));
                    }
                    cr.evidence()
                            .packets()
                            .forEach(p -> out.printf(
                                    "      %10.3f ms %-12s %s%n", p.timeNs() / 1e6, s(p.direction()), s(p.summary())));
                    cr.evidence().pcapFile().ifPresent(f -> out.printf("      pcap: %s%n", s(f)));
                }
            }
            final List<ClauseResult> notFully =
                    r.clauses().stream().filter(ClauseResult::notFullyExercised).toList();
            if (!notFully.isEmpty()) {
                out.printf("%nNot fully exercised (not a failure; a link or configuration that carries these cases"
                        + " exercises them):%n");
                notFully.forEach(c -> out.printf(
                        "  %s %s (%s, %s): not exercised: %s%n",
                        s(c.clauseId()), c.label(), s(c.level()), s(c.profile()), s(c.notExercisedSummary())));
            }
            final List<ClauseResult> na = r.clauses().stream()
                    .filter(c -> c.verdict() == Verdict.NOT_APPLICABLE)
                    .toList();
            if (!na.isEmpty()) {
                out.printf("%nNot applicable (never counted as a pass):%n");
                na.forEach(c -> out.printf("  %s %s: %s%n", s(c.clauseId()), s(c.title()), s(c.reason())));
            }
            out.flush();
        }

        private static String counts(final List<Verdict> verdicts) {
            final StringBuilder b = new StringBuilder().append(verdicts.size()).append(" (");
            final Verdict[] order = {
                Verdict.FAIL, Verdict.ERROR, Verdict.INCONCLUSIVE, Verdict.WARN, Verdict.PASS, Verdict.NOT_APPLICABLE
            };
            for (int i = 0; i < order.length; i++) {
                final Verdict v = order[i];
                b.append(i == 0 ? "" : ", ")
                        .append(v.name())
                        .append(' ')
                        .append(verdicts.stream().filter(x -> x == v).count());
            }
            return b.append(')').toString();
        }
    }

    @Command(
            name = "html",
            mixinStandardHelpOptions = true,
            description = "Rebuild report.html from the run's report.json (the file of record).")
    static final class Html implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR", description = "The run folder (holds report.json).")
        Path runDir;

        @Option(
                names = "--out",
                paramLabel = "FILE",
                description = "Where to write the page (default: RUN_DIR/report.html).")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final RunRecord record;
            try {
                record = JsonReportReader.read(runDir.resolve(ReportWriters.REPORT_JSON));
            } catch (ReportInputException e) {
                return badInput(spec, e);
            }
            final Path target = out == null ? runDir.resolve(ReportWriters.REPORT_HTML) : out;
            ReportWriters.writeHtml(target, record);
            spec.commandLine().getOut().println("wrote " + target);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    @Command(
            name = "validate",
            mixinStandardHelpOptions = true,
            description = {
                "Check report.json, ocptv.jsonl, junit.xml and report.html of a run folder against their schemas.",
                "The schemas are the suite's report schema, OCP Test and Validation 2.0 and Surefire's JUnit XSD.",
                "Exit 0 when all are valid, 1 with one line per problem (a file that is not UTF-8 text among them),"
                        + " 2 when the folder or a file is missing, or is not a regular file of the folder within a"
                        + " report's size."
            })
    static final class Validate implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR", description = "The run folder.")
        Path runDir;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            final List<String> problems;
            try {
                problems = RunFolderCheck.check(runDir, ReportSchemas.bundled());
            } catch (ReportInputException e) {
                return badInput(spec, e);
            }
            final PrintWriter out = spec.commandLine().getOut();
            if (problems.isEmpty()) {
                out.println(runDir + ": report.json, ocptv.jsonl, junit.xml and report.html are valid");
                out.flush();
                return 0;
            }
            problems.forEach(p -> out.println(runDir + "/" + Terminal.safe(p)));
            out.flush();
            return 1;
        }
    }

    private static String s(final String text) {
        return Terminal.safe(text);
    }
}

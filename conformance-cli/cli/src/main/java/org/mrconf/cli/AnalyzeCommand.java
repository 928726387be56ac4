package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.dut.DeclarationException;
import org.mrconf.dut.DeclarationLoader;
import org.mrconf.dut.DeviceDeclaration;
import org.mrconf.files.UserFiles;
import org.mrconf.report.ReportWriters;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.ClauseVerdicts;
import org.mrconf.verdict.RunRecord;
import org.mrconf.verdict.Verdict;
import org.mrconf.wire.WireConstants;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce analyze CAPTURE}: passive conformance analysis of a capture between any two implementations. Prints
 * one verdict per end and clause; exit 1 when an end broke a MUST clause.
 */
@Command(
        name = "analyze",
        mixinStandardHelpOptions = true,
        description = {
            "Judge the wire-observable clauses for each end of a capture between two MetaRoCE implementations.",
            "The capture (pcap or pcapng, Ethernet) is taken to be complete: a tap or mirror port between the ends.",
            "A clause the capture cannot decide is INCONCLUSIVE, never PASS."
        })
final class AnalyzeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "CAPTURE", description = "The capture file (.pcap or .pcapng).")
    Path capture;

    @Option(
            names = "--declaration",
            paramLabel = "[IP[:PORT]=]FILE",
            description = {
                "What an end declares (its device declaration): IP:PORT=FILE for the end at that address and UDP"
                        + " port, IP=FILE for every end at IP ([IPv6]:PORT for IPv6), FILE for every end not named.",
                "Without one, violations of clauses outside the core profile are INCONCLUSIVE."
            })
    List<String> declarations = new ArrayList<>();

    /** The option's name before "profile" came to mean only the spec's feature sets; kept working, deprecated. */
    @Option(names = "--profile", hidden = true, paramLabel = "[IP[:PORT]=]FILE")
    void deprecatedProfile(final String declaration) {
        deprecatedProfileUsed = true;
        declarations.add(declaration);
    }

    private boolean deprecatedProfileUsed;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "The MetaRoCE destination UDP port, 1 to 65535 (default: ${DEFAULT-VALUE}).")
    int port = WireConstants.DEFAULT_UDP_PORT;

    @Option(
            names = "--resend-margin-ms",
            paramLabel = "MS",
            description = {
                "How long after the capture saw an ACK report a PSN received the sender may still resend it (the ACK"
                        + " was still on its way to the sender); default ${DEFAULT-VALUE} ms."
            })
    double resendMarginMs = 5;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = {
                "Folder for the four reports (report.json, report.html, junit.xml, ocptv.jsonl).",
                "Default: reports/analyses/<UTC time>-<capture name>/."
            })
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        if (port < 1 || port > 65_535) {
            throw new DeclarationException("--port", String.valueOf(port), "must be a UDP port, 1 to 65535");
        }
        if (out != null) {
            UserFiles.makeFolder(out, "the reports"); // before the capture is read: bad input is exit 2
        }
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Map<String, DeviceDeclaration> byEnd = new HashMap<>();
        Optional<DeviceDeclaration> everyEnd = Optional.empty();
        final DeclarationLoader loader = new DeclarationLoader(catalogue);
        if (deprecatedProfileUsed) {
            spec.commandLine()
                    .getErr()
                    .println("note: --profile is deprecated here; it is now --declaration (a profile is one of the"
                            + " spec's feature sets)");
        }
        for (final String declaration : declarations) {
            final int equals = declaration.indexOf('=');
            if (equals > 0) {
                byEnd.put(declaration.substring(0, equals), loader.load(Path.of(declaration.substring(equals + 1))));
            } else if (everyEnd.isPresent()) {
                throw new DeclarationException(
                        "--declaration",
                        declaration,
                        "only one declaration may apply to every end; name the end of the others with IP=FILE");
            } else {
                everyEnd = Optional.of(loader.load(Path.of(declaration)));
            }
        }
        if (!(resendMarginMs >= 0 && resendMarginMs < 60_000)) {
            throw new DeclarationException("--resend-margin-ms", String.valueOf(resendMarginMs), "must be 0 to 60000");
        }
        final Instant startedAt = Instant.now();
        final CaptureAnalysis analysis = CaptureAnalysis.of(
                capture, port, Duration.ofNanos((long) (resendMarginMs * 1e6)), catalogue, byEnd, everyEnd);
        console.printf(
                "Capture: %s: %d frames, %d to port %d, %d paths%n",
                capture, analysis.frames(), analysis.metaroceFrames(), port, analysis.paths());
        analysis.notes().forEach((reason, count) -> console.printf("  not judged: %d %s%n", count, reason));
        console.println();
        for (final CaseResult result : analysis.cases()) {
            console.printf("%-14s %-7s %s%n", result.verdict(), String.join(" ", result.clauses()), result.title());
            if (!result.message().isEmpty() && result.verdict() != Verdict.NOT_APPLICABLE) {
                console.printf("               %s%n", result.message());
            }
        }
        final List<ClauseResult> clauses = ClauseVerdicts.combine(
                analysis.cases(), ClauseVerdicts.ClauseInfo.of(catalogue), clauseOrder(catalogue));
        final long failed =
                clauses.stream().filter(c -> c.verdict() == Verdict.FAIL).count();
        final Path folder = out != null ? out : defaultFolder(startedAt);
        ReportWriters.writeAll(folder, record(catalogue, analysis, clauses, startedAt));
        console.printf("Reports: %s%n", folder);
        console.printf(
                "%n%d clauses judged for %d ends: %d failed%n",
                clauses.size(),
                analysis.cases().stream()
                        .map(c -> c.caseId().substring(0, c.caseId().indexOf(']')))
                        .distinct()
                        .count(),
                failed);
        console.flush();
        return failed > 0 ? 1 : 0;
    }

    private Path defaultFolder(final Instant startedAt) {
        final String time = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC)
                .format(startedAt);
        final String name = capture.getFileName().toString().replaceAll("[^A-Za-z0-9._-]", "_");
        return Path.of("reports", "analyses", time + "-" + name);
    }

    /** The analysis as a run record, so it gets the same four reports as a conformance run. */
    private RunRecord record(
            final ClauseCatalogue catalogue,
            final CaptureAnalysis analysis,
            final List<ClauseResult> clauses,
            final Instant startedAt) {
        final String suite = MetaroceCommand.class.getPackage().getImplementationVersion();
        final Map<String, String> parameters = new java.util.TreeMap<>();
        parameters.put("capture", capture.toString());
        parameters.put("frames", Long.toString(analysis.frames()));
        parameters.put("metaroceFrames", Long.toString(analysis.metaroceFrames()));
        parameters.put("paths", Integer.toString(analysis.paths()));
        parameters.put("port", Integer.toString(port));
        parameters.put("resendMarginMs", Double.toString(resendMarginMs));
        analysis.notes().forEach((reason, count) -> parameters.put("notJudged." + reason, Long.toString(count)));
        final RunRecord.DutDescription dut = new RunRecord.DutDescription(
                "capture " + capture.getFileName(),
                "(passive analysis of both ends)",
                "",
                "",
                "",
                List.of(),
                List.of(),
                List.of(),
                parameters,
                "capture");
        return new RunRecord(
                suite == null ? "development build" : suite,
                "unknown",
                catalogue.specVersion(),
                "metaroce analyze "
                        + String.join(" ", spec.commandLine().getParseResult().originalArgs()),
                dut,
                startedAt,
                Optional.of(Instant.now()),
                false,
                Map.of("mode", "passive analysis"),
                analysis.cases(),
                clauses);
    }

    static List<String> clauseOrder(final ClauseCatalogue catalogue) {
        return catalogue.clauses().stream().map(c -> c.id()).toList();
    }
}

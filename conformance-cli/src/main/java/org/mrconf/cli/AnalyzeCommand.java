package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.mrconf.analyze.CaptureAnalysis;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.dut.DutProfile;
import org.mrconf.dut.DutProfileException;
import org.mrconf.dut.DutProfileLoader;
import org.mrconf.verdict.CaseResult;
import org.mrconf.verdict.ClauseResult;
import org.mrconf.verdict.ClauseVerdicts;
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
            "Judge the wire-observable clauses for each end of a capture (pcap or pcapng, Ethernet) between any two",
            "MetaRoCE implementations. The capture is taken to be complete: a tap or mirror port between the ends.",
            "A clause the capture cannot decide is INCONCLUSIVE, never PASS."
        })
final class AnalyzeCommand implements Callable<Integer> {
    @Parameters(paramLabel = "CAPTURE", description = "The capture file (.pcap or .pcapng).")
    Path capture;

    @Option(
            names = "--profile",
            paramLabel = "[IP=]FILE",
            description = {
                "What an end declares (a DUT profile): IP=FILE for the end at IP, FILE for every end not named.",
                "Without one, violations of clauses outside the core profile are INCONCLUSIVE."
            })
    List<String> profiles = new ArrayList<>();

    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "The MetaRoCE destination UDP port (default: ${DEFAULT-VALUE}).")
    int port = WireConstants.DEFAULT_UDP_PORT;

    @Option(
            names = "--resend-margin-ms",
            paramLabel = "MS",
            description = {
                "How long after the capture saw an ACK report a PSN received the sender may still resend it",
                "(the ACK was still on its way to the sender); default ${DEFAULT-VALUE} ms."
            })
    double resendMarginMs = 5;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        final Map<String, DutProfile> declarations = new HashMap<>();
        Optional<DutProfile> everyEnd = Optional.empty();
        final DutProfileLoader loader = new DutProfileLoader(catalogue);
        for (final String profile : profiles) {
            final int equals = profile.indexOf('=');
            if (equals > 0) {
                declarations.put(profile.substring(0, equals), loader.load(Path.of(profile.substring(equals + 1))));
            } else if (everyEnd.isPresent()) {
                throw new DutProfileException(
                        "--profile",
                        profile,
                        "only one profile may apply to every end; " + "name the end of the others with IP=FILE");
            } else {
                everyEnd = Optional.of(loader.load(Path.of(profile)));
            }
        }
        if (!(resendMarginMs >= 0 && resendMarginMs < 60_000)) {
            throw new DutProfileException("--resend-margin-ms", String.valueOf(resendMarginMs), "must be 0 to 60000");
        }
        final CaptureAnalysis analysis = CaptureAnalysis.of(
                capture, port, Duration.ofNanos((long) (resendMarginMs * 1e6)), catalogue, declarations, everyEnd);
        out.printf(
                "Capture: %s: %d frames, %d to port %d, %d paths%n",
                capture, analysis.frames(), analysis.metaroceFrames(), port, analysis.paths());
        analysis.notes().forEach((reason, count) -> out.printf("  not judged: %d %s%n", count, reason));
        out.println();
        for (final CaseResult result : analysis.cases()) {
            out.printf("%-14s %-7s %s%n", result.verdict(), String.join(" ", result.clauses()), result.title());
            if (!result.message().isEmpty() && result.verdict() != Verdict.NOT_APPLICABLE) {
                out.printf("               %s%n", result.message());
            }
        }
        final List<ClauseResult> clauses =
                ClauseVerdicts.combine(analysis.cases(), clauseInfo(catalogue), clauseOrder(catalogue));
        final long failed =
                clauses.stream().filter(c -> c.verdict() == Verdict.FAIL).count();
        out.printf(
                "%n%d clauses judged for %d ends: %d failed%n",
                clauses.size(),
                analysis.cases().stream()
                        .map(c -> c.caseId().substring(0, c.caseId().indexOf(']')))
                        .distinct()
                        .count(),
                failed);
        out.flush();
        return failed > 0 ? 1 : 0;
    }

    static ClauseVerdicts.ClauseInfo clauseInfo(final ClauseCatalogue catalogue) {
        return new ClauseVerdicts.ClauseInfo() {
            @Override
            public String title(final String clauseId) {
                return catalogue.find(clauseId).map(c -> c.title()).orElse("");
            }

            @Override
            public String level(final String clauseId) {
                return catalogue.find(clauseId).map(c -> c.level().name()).orElse("");
            }

            @Override
            public String profile(final String clauseId) {
                return catalogue.find(clauseId).map(c -> c.profile().specName()).orElse("");
            }
        };
    }

    static List<String> clauseOrder(final ClauseCatalogue catalogue) {
        return catalogue.clauses().stream().map(c -> c.id()).toList();
    }
}

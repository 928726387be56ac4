package org.mrconf.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.mrconf.catalogue.CatalogueLoader;
import org.mrconf.catalogue.ClauseCatalogue;
import org.mrconf.cli.dut.OpenDevice;
import org.mrconf.dut.DutInfo;
import org.mrconf.runner.CaseResult;
import org.mrconf.runner.CaseRunner;
import org.mrconf.runner.Verdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code metaroce run}: runs the conformance cases against a device and prints one verdict per case with
 * the clauses it verifies. Exit code 1 when any case fails.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the conformance cases against a device under test.",
            "Without --dut the embedded reference is tested (in memory, nothing on the network)."
        })
final class RunCommand implements Callable<Integer> {
    @Option(
            names = "--dut",
            paramLabel = "TARGET",
            description = {
                "The device: udp://HOST:PORT[?control=P&token=T] for a soft DUT or NIC agent over UDP,",
                "or a DUT profile JSON file (see spec-cases/src/main/resources/profiles/reference-udp.json).",
                "Default: the embedded reference."
            })
    String target;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        final ClauseCatalogue catalogue = new CatalogueLoader().loadBundled();
        try (OpenDevice opened = OpenDevice.open(target)) {
            final DutInfo info = opened.device().control().hello();
            out.printf(
                    "Device: %s: %s %s, firmware %s, claims %s%n",
                    opened.device().name(),
                    info.implementation().vendor(),
                    info.implementation().model(),
                    info.implementation().firmware(),
                    new TreeSet<>(info.profiles().stream().map(Object::toString).toList()));
            if (info.hasDefects()) {
                out.printf("DELIBERATE DEFECTS (hello): %s: this device is not conformant by design%n", info.defects());
            }
            out.printf("Spec: %s %s (not Meta's specification)%n%n", catalogue.spec(), catalogue.specVersion());
            out.flush();
            final List<CaseResult> results = CaseRunner.run(opened.device(), result -> {
                out.printf("%-7s %-24s %s%n", result.verdict(), String.join(" ", result.clauses()), result.caseId());
                if (result.verdict() != Verdict.PASS && !result.message().isBlank()) {
                    out.printf(
                            "        %s%n", result.message().lines().findFirst().orElse(""));
                }
                out.flush();
            });
            final Set<String> exercised = new TreeSet<>();
            results.forEach(r -> exercised.addAll(r.clauses()));
            final long passed = count(results, Verdict.PASS);
            final long failed = count(results, Verdict.FAIL) + count(results, Verdict.ABORTED);
            out.printf(
                    "%n%d of %d clauses exercised by %d cases%n",
                    exercised.size(), catalogue.clauses().size(), results.size());
            out.printf("%d passed, %d failed, %d skipped%n", passed, failed, count(results, Verdict.SKIP));
            out.flush();
            return failed > 0 ? 1 : 0;
        }
    }

    private static long count(final List<CaseResult> results, final Verdict verdict) {
        return results.stream().filter(r -> r.verdict() == verdict).count();
    }
}

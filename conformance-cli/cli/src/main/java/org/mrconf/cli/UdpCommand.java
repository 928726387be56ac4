package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.mrconf.bench.Machine;
import org.mrconf.bench.UdpBenchmark;
import org.mrconf.bench.UdpReport;
import org.mrconf.bench.UdpReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code metaroce bench udp}: the reference's goodput between two processes on loopback UDP. */
@Command(
        name = "udp",
        mixinStandardHelpOptions = true,
        description = {
            "Goodput of WRITEs between two reference endpoints in separate processes over loopback UDP.",
            "1 and 8 paths, 4 KiB payloads, WRITEs of 1 MiB and 64 MiB, lossless and at injected loss, beside a"
                    + " plain UDP blaster (same sockets and datagram size, no protocol) measured in the same run.",
            "Real time: the figures depend on the machine and its load; the ratios to the blaster are the result."
        })
final class UdpCommand implements Callable<Integer> {
    @Option(
            names = "--out",
            defaultValue = "reports/benchmarks",
            paramLabel = "DIR",
            description = "Folder for udp.md and udp.csv (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--quick",
            description =
                    "WRITEs of 64 KiB and 256 KiB, few of them, short blasts: a smoke run, not the committed table.")
    boolean quick;

    @Option(
            names = "--loss",
            defaultValue = "0.01",
            paramLabel = "SHARE",
            description =
                    "Share of datagrams each endpoint drops on receipt in the lossy runs (default: ${DEFAULT-VALUE}).")
    double loss;

    @Option(
            names = "--line-rate",
            defaultValue = "12000000000",
            paramLabel = "BITS_PER_SECOND",
            description = "The endpoints' configured line rate, the pacer's ceiling (default: ${DEFAULT-VALUE}).")
    long lineRate;

    @Option(
            names = "--rounds",
            defaultValue = "5",
            description = "Rounds of every row; each row reports its median round (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the payload and of the injected loss (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter progress = spec.commandLine().getOut();
        if (!(loss >= 0 && loss < 1)) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--loss must be at least 0 and below 1, was " + loss);
        }
        if (rounds < 1 || rounds > 99) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--rounds must be 1 to 99, was " + rounds);
        }
        if (lineRate < 1_000_000) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--line-rate must be at least 1000000 bits per second, was " + lineRate);
        }
        final UdpBenchmark.Settings settings = quick
                ? new UdpBenchmark.Settings(
                        List.of(1, 8),
                        List.of(new UdpBenchmark.Write(64 * 1024, 8, 2), new UdpBenchmark.Write(256 * 1024, 2, 1)),
                        loss,
                        300,
                        lineRate,
                        "256m",
                        1,
                        seed)
                : new UdpBenchmark.Settings(
                        List.of(1, 8),
                        List.of(new UdpBenchmark.Write(1 << 20, 256, 4), new UdpBenchmark.Write(64 << 20, 4, 1)),
                        loss,
                        3000,
                        lineRate,
                        "768m",
                        rounds,
                        seed);
        final List<UdpBenchmark.Row> rows = UdpBenchmark.run(settings, progress);
        final StringBuilder command = new StringBuilder("./metaroce bench udp");
        if (quick) {
            command.append(" --quick");
        }
        if (loss != 0.01) {
            command.append(" --loss ").append(loss);
        }
        if (lineRate != 12_000_000_000L) {
            command.append(" --line-rate ").append(lineRate);
        }
        if (rounds != 5 && !quick) {
            command.append(" --rounds ").append(rounds);
        }
        if (seed != 1) {
            command.append(" --seed ").append(seed);
        }
        final UdpReport report = new UdpReport(command.toString(), settings, rows, Machine.describe());
        UdpReportWriter.write(report, out);
        for (final UdpReport.Target target : report.targets()) {
            progress.printf(
                    "%-4s %s: %s (required %s)%n",
                    target.met() ? "MET" : "MISS", target.name(), target.measured(), target.required());
        }
        progress.println("wrote " + out.resolve("udp.md") + " and udp.csv beside it");
        progress.flush();
        return 0;
    }
}

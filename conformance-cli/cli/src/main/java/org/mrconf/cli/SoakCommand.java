package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.mrconf.bench.SoakBenchmark;
import org.mrconf.bench.SoakReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code metaroce bench soak}: the bounded-memory soak of the soft DUT under hostile traffic. */
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        description = {
            "Hostile CRC-valid packets against a soft DUT in a child JVM with a small heap; writes soak.md.",
            "Meanwhile a legitimate peer writes to it through a lossy link. Loopback only; a few minutes at most."
        })
final class SoakCommand implements Callable<Integer> {
    @Option(
            names = "--out",
            defaultValue = "reports/benchmarks",
            paramLabel = "DIR",
            description = "Folder for soak.md (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(
            names = "--packets",
            defaultValue = "1000000",
            description = "Hostile packets to send (default: ${DEFAULT-VALUE}).")
    long packets;

    @Option(names = "--xmx", defaultValue = "256m", description = "The DUT's maximum heap (default: ${DEFAULT-VALUE}).")
    String maxHeap;

    @Option(
            names = "--loss",
            defaultValue = "0.05",
            description = "Share of the legitimate peer's datagrams dropped each way (default: ${DEFAULT-VALUE}).")
    double loss;

    @Option(
            names = "--messages",
            defaultValue = "200",
            description = "Fewest legitimate WRITEs, also after the attack ends (default: ${DEFAULT-VALUE}).")
    int messages;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the attack (default: ${DEFAULT-VALUE}).")
    long seed;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        final PrintWriter console = spec.commandLine().getOut();
        final SoakBenchmark.Result result =
                SoakBenchmark.run(new SoakBenchmark.Settings(packets, maxHeap, loss, messages, seed), console);
        final String command = "./metaroce bench soak --packets " + packets + " --xmx " + maxHeap + " --loss " + loss
                + " --messages " + messages + " --seed " + seed;
        final Path file = SoakReportWriter.write(out, result, command);
        console.printf(
                "soak: heap after GC %.1f -> %.1f MiB; %d/%d legitimate WRITEs succeeded; p50 %.0f us, p99 %.0f us;"
                        + " wrote %s%n",
                result.heapStartBytes() / 1048576.0,
                result.heapEndBytes() / 1048576.0,
                result.succeeded(),
                result.messages(),
                result.p50Micros(),
                result.p99Micros(),
                file);
        final boolean bounded = result.succeeded() == result.messages() && result.dataIntact() && result.aliveAtEnd();
        return bounded ? 0 : 1;
    }
}

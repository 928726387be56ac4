package org.mrconf.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.mrconf.bench.AnalyzeBenchmark;
import org.mrconf.bench.LossReport;
import org.mrconf.bench.LossReportWriter;
import org.mrconf.bench.VectorsBenchmark;
import org.mrconf.sim.IncastBenchmark;
import org.mrconf.sim.LossBenchmark;
import org.mrconf.sim.PathFailureBenchmark;
import org.mrconf.transport.EndpointConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code metaroce bench}: benchmarks that check the transport's claims, never timed unit tests. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Run benchmarks and write their tables under reports/benchmarks/.",
        subcommands = {
            BenchCommand.Loss.class,
            BenchCommand.Analyze.class,
            BenchCommand.Vectors.class,
            SoakCommand.class,
            UdpCommand.class,
            StabilityCommand.class
        })
public final class BenchCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code metaroce bench loss}: goodput under loss, path-failure recovery and incast fairness. */
    @Command(
            name = "loss",
            mixinStandardHelpOptions = true,
            description = {
                "Goodput and completion times under 0 to 10%% random loss for MetaRoCE with 1, 8 and 64 paths.",
                "The same for the go-back-N baseline; recovery after one of 8 paths goes black; incast fairness.",
                "Runs in virtual time on the simulated fabric: deterministic for a seed."
            })
    static final class Loss implements Callable<Integer> {
        private static final double[] LOSS_RATES = {0, 0.001, 0.01, 0.05, 0.10};
        private static final int[] PATHS = {1, 8, 64};

        @Option(
                names = "--out",
                defaultValue = "reports/benchmarks",
                paramLabel = "DIR",
                description = "Folder for loss.csv, loss.json, loss.md and loss.svg (default: ${DEFAULT-VALUE}).")
        Path out;

        @Option(
                names = "--quick",
                description = "Small messages and few of them: a smoke run, not the committed table.")
        boolean quick;

        @Option(
                names = "--seed",
                defaultValue = "1",
                description = "Seed of the loss processes (default: ${DEFAULT-VALUE}).")
        long seed;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            final PrintWriter out = spec.commandLine().getOut();
            final LossBenchmark.Settings defaults = LossBenchmark.Settings.defaults();
            final LossBenchmark.Settings base = new LossBenchmark.Settings(
                    defaults.linkRateBps(),
                    defaults.routePropagationNs(),
                    defaults.routes(),
                    defaults.messageBytes(),
                    defaults.messages(),
                    defaults.outstanding(),
                    defaults.timeLimitNs(),
                    seed);
            final LossBenchmark.Settings settings = quick ? base.quick() : base;
            final List<LossBenchmark.Run> runs = new ArrayList<>();
            for (final double loss : LOSS_RATES) {
                for (final int paths : PATHS) {
                    runs.add(report(out, LossBenchmark.run(LossBenchmark.Transport.METAROCE, paths, loss, settings)));
                }
                runs.add(report(out, LossBenchmark.run(LossBenchmark.Transport.GO_BACK_N, 1, loss, settings)));
            }
            out.println("path failure ...");
            final PathFailureBenchmark.Result failure = PathFailureBenchmark.run(settings);
            out.println("incast ...");
            final List<IncastBenchmark.Result> incast = new ArrayList<>();
            // The draft's active window (the 10-us hint interval), and one of two base RTTs (LossReportWriter.NOTES).
            for (final long interval :
                    new long[] {EndpointConfig.defaults().rateHintIntervalNs(), 2 * settings.baseRttNs()}) {
                for (final int senders : new int[] {8, 64}) {
                    for (final int paths : new int[] {1, 8}) {
                        incast.add(IncastBenchmark.run(settings, senders, paths, interval));
                    }
                }
            }
            final String command =
                    "./metaroce bench loss" + (quick ? " --quick" : "") + (seed != 1 ? " --seed " + seed : "");
            final LossReport report = new LossReport(command, settings, LossReport.relative(runs), failure, incast);
            LossReportWriter.write(report, out());
            for (final LossReport.Target target : report.targets()) {
                out.printf(
                        "%-4s %s: %s (required %s)%n",
                        target.met() ? "MET" : "MISS", target.name(), target.measured(), target.required());
            }
            out.println("wrote " + out().resolve("loss.md") + " and .csv, .json, .svg beside it");
            out.flush();
            return 0;
        }

        private Path out() {
            return out;
        }

        private static LossBenchmark.Run report(final PrintWriter out, final LossBenchmark.Run run) {
            out.printf(
                    Locale.ROOT,
                    "%-9s %2d path(s) loss %5.1f%%: %6.1f Gbit/s, %d messages%n",
                    run.transport(),
                    run.paths(),
                    run.lossRate() * 100,
                    run.goodputGbps(),
                    run.messagesCompleted());
            out.flush();
            return run;
        }
    }

    /** {@code metaroce bench analyze}: the passive analyser's packet rate beside tshark's, and its heap. */
    @Command(
            name = "analyze",
            mixinStandardHelpOptions = true,
            description = {
                "Packets per second of `metaroce analyze` beside `tshark -r` with tools/wireshark/metaroce.lua.",
                "Both read the same synthetic capture; then the analyser's heap after GC on a capture of"
                        + " --long-packets frames."
            })
    static final class Analyze implements Callable<Integer> {
        @Option(
                names = "--out",
                defaultValue = "reports/benchmarks",
                paramLabel = "DIR",
                description = "Folder for analyze.md.")
        Path out;

        @Option(
                names = "--packets",
                defaultValue = "1000000",
                description = "Frames in the rate capture (default: ${DEFAULT-VALUE}).")
        long packets;

        @Option(
                names = "--long-packets",
                defaultValue = "10000000",
                description = "Frames in the memory capture; 0 skips it (default: ${DEFAULT-VALUE}).")
        long longPackets;

        @Option(
                names = "--paths",
                defaultValue = "64",
                description = "Paths the traffic is sprayed over (default: ${DEFAULT-VALUE}).")
        int paths;

        @Option(
                names = "--dissector",
                defaultValue = "tools/wireshark/metaroce.lua",
                description = "The Lua dissector.")
        Path dissector;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return new AnalyzeBenchmark(out, packets, longPackets, paths, dissector)
                    .run(spec.commandLine().getOut());
        }
    }

    /** {@code metaroce bench vectors}: how long replaying the whole vector corpus takes. */
    @Command(
            name = "vectors",
            mixinStandardHelpOptions = true,
            description = "Replay every vector under test-vectors/ against the embedded reference; writes vectors.md.")
    static final class Vectors implements Callable<Integer> {
        @Option(
                names = "--out",
                defaultValue = "reports/benchmarks",
                paramLabel = "DIR",
                description = "Folder for vectors.md.")
        Path out;

        @Option(names = "--root", defaultValue = "test-vectors", paramLabel = "DIR", description = "The vector root.")
        Path root;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return new VectorsBenchmark(out, root).run(spec.commandLine().getOut());
        }
    }
}

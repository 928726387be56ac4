package org.mrconf.cli.bench;

import java.util.ArrayList;
import java.util.List;
import org.mrconf.sim.IncastBenchmark;
import org.mrconf.sim.LossBenchmark;
import org.mrconf.sim.PathFailureBenchmark;

/**
 * Everything one {@code bench loss} run measured, with the targets evaluated against it. The
 * writers turn it into CSV, JSON, Markdown and an SVG chart.
 *
 * @param command     the command line that produced it
 * @param settings    fabric and workload
 * @param rows        one row per transport, path count and loss rate
 * @param pathFailure recovery after one of 8 paths goes black
 * @param incast      one result per sender path count
 */
record LossReport(
        String command,
        LossBenchmark.Settings settings,
        List<Row> rows,
        PathFailureBenchmark.Result pathFailure,
        List<IncastBenchmark.Result> incast) {

    /** One measured configuration, with its goodput relative to the same configuration without loss. */
    record Row(LossBenchmark.Run run, double relativeGoodput) {
        String label() {
            return run.transport() == LossBenchmark.Transport.GO_BACK_N
                    ? "go-back-N baseline"
                    : "MetaRoCE " + run.paths() + (run.paths() == 1 ? " path" : " paths");
        }
    }

    /** One target of the issue and whether the measurement meets it. */
    record Target(String name, String required, String measured, boolean met) {}

    static List<Row> relative(final List<LossBenchmark.Run> runs) {
        final List<Row> rows = new ArrayList<>();
        for (final LossBenchmark.Run run : runs) {
            final double lossless = runs.stream()
                    .filter(r -> r.transport() == run.transport() && r.paths() == run.paths() && r.lossRate() == 0)
                    .mapToDouble(LossBenchmark.Run::goodputGbps)
                    .findFirst()
                    .orElse(Double.NaN);
            rows.add(new Row(run, run.goodputGbps() / lossless));
        }
        return rows;
    }

    List<Target> targets() {
        final List<Target> targets = new ArrayList<>();
        for (final Row row : rows) {
            if (row.run().transport() != LossBenchmark.Transport.METAROCE) {
                continue;
            }
            if (row.run().lossRate() == 0.01) {
                targets.add(target(row.label() + " at 1% loss", 0.95, row.relativeGoodput()));
            } else if (row.run().lossRate() == 0.10) {
                targets.add(target(row.label() + " at 10% loss", 0.60, row.relativeGoodput()));
            }
        }
        for (final IncastBenchmark.Result result : incast) {
            final double rtts = result.convergenceRtts();
            targets.add(new Target(
                    "incast of " + result.senders() + " senders fair (Jain >= 0.95)",
                    "within 3 RTTs",
                    Double.isNaN(rtts) ? "never" : String.format("%.0f RTTs", rtts),
                    !Double.isNaN(rtts) && rtts <= 3));
        }
        return targets;
    }

    private static Target target(final String name, final double required, final double measured) {
        return new Target(
                name,
                String.format(">= %.0f%% of lossless goodput", required * 100),
                String.format("%.1f%%", measured * 100),
                measured >= required);
    }
}

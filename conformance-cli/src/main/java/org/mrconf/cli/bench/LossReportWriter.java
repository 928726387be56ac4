package org.mrconf.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.mrconf.sim.IncastBenchmark;
import org.mrconf.sim.LossBenchmark;

/** Writes a {@link LossReport} as loss.csv, loss.json, loss.md and loss.svg in one folder. */
final class LossReportWriter {
    private LossReportWriter() {}

    static void write(final LossReport report, final Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("loss.csv"), csv(report), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("loss.json"), json(report), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("loss.md"), markdown(report), StandardCharsets.UTF_8);
        Files.writeString(folder.resolve("loss.svg"), GoodputChart.svg(report), StandardCharsets.UTF_8);
    }

    static String csv(final LossReport report) {
        final StringBuilder csv = new StringBuilder("transport,paths,loss_rate,goodput_gbps,relative_goodput,"
                + "p50_completion_us,p99_completion_us,messages_completed,data_packets,retransmissions,timeouts\n");
        for (final LossReport.Row row : report.rows()) {
            final LossBenchmark.Run run = row.run();
            csv.append(String.format(
                    Locale.ROOT,
                    "%s,%d,%.3f,%.2f,%.4f,%.1f,%.1f,%d,%d,%d,%d%n",
                    run.transport(),
                    run.paths(),
                    run.lossRate(),
                    run.goodputGbps(),
                    row.relativeGoodput(),
                    run.p50CompletionNs() / 1e3,
                    run.p99CompletionNs() / 1e3,
                    run.messagesCompleted(),
                    run.dataPackets(),
                    run.retransmissions(),
                    run.timeouts()));
        }
        return csv.toString();
    }

    static String json(final LossReport report) throws IOException {
        final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        final ObjectNode root = mapper.createObjectNode();
        root.put("command", report.command());
        root.put("note", "Virtual-time simulation of the reference transport; deterministic for the seed.");
        root.set("settings", mapper.valueToTree(report.settings()));
        root.put("baseRttNs", report.settings().baseRttNs());
        root.put("initialWindowPackets", report.settings().initialWindowPackets());
        final ArrayNode rows = root.putArray("loss");
        for (final LossReport.Row row : report.rows()) {
            final ObjectNode node = mapper.valueToTree(row.run());
            node.put("goodputGbps", row.run().goodputGbps());
            node.put("relativeGoodput", row.relativeGoodput());
            rows.add(node);
        }
        final ObjectNode failure = mapper.valueToTree(report.pathFailure());
        failure.put("recoveryRtts", report.pathFailure().recoveryRtts());
        root.set("pathFailure", failure);
        final ArrayNode incast = root.putArray("incast");
        for (final IncastBenchmark.Result result : report.incast()) {
            final ObjectNode node = mapper.valueToTree(result);
            node.put("convergenceRtts", result.convergenceRtts());
            incast.add(node);
        }
        root.set("targets", mapper.valueToTree(report.targets()));
        return mapper.writeValueAsString(root) + "\n";
    }

    static String markdown(final LossReport report) {
        final LossBenchmark.Settings s = report.settings();
        final StringBuilder md = new StringBuilder();
        md.append("# Loss benchmark: reference MetaRoCE versus go-back-N\n\n");
        md.append("Made by `")
                .append(report.command())
                .append("` (virtual time on the simulated fabric: the numbers ")
                .append("depend only on the code and the seed, not on the machine).\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Fabric: every link %.0f Gbit/s, %d core routes, base RTT %.1f us, so a ",
                s.linkRateBps() / 1e9,
                s.routes(),
                s.baseRttNs() / 1e3));
        md.append(String.format(
                Locale.ROOT,
                "bandwidth-delay product of %d packets of 4 KiB; random loss on every core ",
                s.linkRateBps() / 8 * s.baseRttNs() / 1_000_000_000L / 4096));
        md.append(String.format(
                Locale.ROOT,
                "link in both directions. Workload: %d messages of %d MiB, %d outstanding. ",
                s.messages(),
                s.messageBytes() >> 20,
                s.outstanding()));
        md.append(String.format(
                Locale.ROOT,
                "MetaRoCE initial windows: %d packets; go-back-N window: 2 x BDP.%n%n",
                s.initialWindowPackets()));
        md.append(
                "| Transport | Loss | Goodput (Gbit/s) | Of lossless | p50 completion (us) | p99 completion (us) | Retransmissions | Timeouts |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final LossReport.Row row : report.rows()) {
            final LossBenchmark.Run run = row.run();
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.1f%% | %.1f | %.1f%% | %.0f | %.0f | %d | %d |%n",
                    row.label(),
                    run.lossRate() * 100,
                    run.goodputGbps(),
                    row.relativeGoodput() * 100,
                    run.p50CompletionNs() / 1e3,
                    run.p99CompletionNs() / 1e3,
                    run.retransmissions(),
                    run.timeouts()));
        }
        md.append("\n## Recovery after one of 8 paths goes black\n\n");
        final var failure = report.pathFailure();
        final String recovery = failure.recoveryNs() < 0
                ? "**never** came back within 5% of the 7-path level"
                : failure.recoveryNs() == 0
                        ? "**never fell more than 5% below the 7-path level** (no recovery needed)"
                        : String.format(
                                Locale.ROOT,
                                "was back within 5%% of the 7-path level after **%.0f us (%.1f RTTs)**",
                                failure.recoveryNs() / 1e3,
                                failure.recoveryRtts());
        md.append(String.format(
                Locale.ROOT,
                "7-path level %.1f Gbit/s; before the failure %.1f Gbit/s; lowest "
                        + "100-us average after it %.1f Gbit/s; goodput %s; %d timeouts, %d re-paths. Goodput here is "
                        + "bytes placed at the receiver, which keeps flowing on the 7 live paths while the dead path's "
                        + "packets are recovered.%n",
                failure.sevenPathGbps(),
                failure.beforeGbps(),
                failure.minimumGbps(),
                recovery,
                failure.timeouts(),
                failure.repaths()));
        md.append("\n## Incast: 8 senders into one receiver\n\n");
        md.append(
                "Senders start two RTTs apart; time from the last start until Jain's index of their delivered bytes per RTT stays at or above 0.95.\n\n");
        md.append(
                "| Paths per sender | Converged after | Jain (last quarter) | Aggregate (Gbit/s) |\n| ---: | ---: | ---: | ---: |\n");
        for (final IncastBenchmark.Result result : report.incast()) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.4f | %.1f |%n",
                    result == report.incast().get(0) ? "1" : "8",
                    Double.isNaN(result.convergenceRtts())
                            ? "never"
                            : String.format(Locale.ROOT, "%.0f RTTs", result.convergenceRtts()),
                    result.finalJain(),
                    result.aggregateGbps()));
        }
        md.append("\n## Targets\n\n| Target | Required | Measured | Met |\n| --- | --- | --- | --- |\n");
        for (final LossReport.Target target : report.targets()) {
            md.append("| ")
                    .append(target.name())
                    .append(" | ")
                    .append(target.required())
                    .append(" | ")
                    .append(target.measured())
                    .append(" | ")
                    .append(target.met() ? "yes" : "**no**")
                    .append(" |\n");
        }
        md.append("\nChart: `loss.svg`. Raw numbers: `loss.csv`, `loss.json`.\n");
        return md.toString();
    }
}

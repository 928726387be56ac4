package org.mrconf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Writes the soak benchmark's table, {@code soak.md}, with the command that made it. */
public final class SoakReportWriter {
    private static final String NOTES = """

            ## Reading this table

            - Heap after GC is the DUT's live data (`jcmd GC.run`, then `GC.heap_info`): what the attack made it keep.
            - Latency is from the peer's `post_write` to its completion, through its control channel, on a shared
              2-core machine; the tail is the scheduler and the 5% loss (retransmission timeouts), not the attack.
            - `rx_out_of_window` is high because the kernel drops some hostile datagrams when the DUT's socket
              buffer is full: the attacker's PSN streams then have gaps it never fills, and its later packets fall
              outside the 256-PSN window. The transport-level tests (`StreamStateMemoryTest`) drive the state budget
              to exhaustion deterministically; `rx_dropped_no_state` appears here only if a run reaches it.
            """;

    private SoakReportWriter() {}

    public static Path write(final Path directory, final SoakBenchmark.Result r, final String command)
            throws IOException {
        Files.createDirectories(directory);
        final StringBuilder md = new StringBuilder();
        final SoakBenchmark.Settings s = r.settings();
        md.append("# Bounded-memory soak of the reference soft DUT\n\n");
        md.append("Made by `")
                .append(command)
                .append("` (")
                .append(System.getProperty("os.name"))
                .append(", Java ")
                .append(Runtime.version().feature())
                .append(", loopback only).\n\n");
        md.append(String.format(
                Locale.ROOT,
                "The soft DUT runs in a child JVM with `-Xmx%s`. An attacker on 127.0.0.2 sends %,d hostile"
                        + " CRC-valid packets (mix below); meanwhile a legitimate peer on 127.0.0.1 writes %d KiB"
                        + " messages, %d outstanding, through relays that drop %.0f%% of the datagrams each way.%n%n",
                s.maxHeap(),
                r.hostileSent(),
                64,
                4,
                s.loss() * 100));
        md.append("| Measure | Value |\n| --- | --- |\n");
        row(md, "DUT heap after GC, start", mib(r.heapStartBytes()));
        row(md, "DUT heap after GC, end", mib(r.heapEndBytes()));
        row(
                md,
                "Hostile packets sent",
                String.format(Locale.ROOT, "%,d in %.1f s", r.hostileSent(), r.hostileSeconds()));
        row(
                md,
                "Legitimate WRITEs posted / completed with SUCCESS",
                r.messages() + " / " + r.succeeded()
                        + (r.messages() == r.succeeded() ? " (none lost)" : " (LOST SOME)"));
        row(md, "Legitimate data in the DUT's region", r.dataIntact() ? "byte-for-byte as sent" : "DIFFERS");
        row(md, "Legitimate WRITE latency p50", String.format(Locale.ROOT, "%.0f µs", r.p50Micros()));
        row(md, "Legitimate WRITE latency p99", String.format(Locale.ROOT, "%.0f µs", r.p99Micros()));
        row(md, "Legitimate WRITE latency max", String.format(Locale.ROOT, "%.0f µs", r.maxMicros()));
        row(
                md,
                "Relay datagrams dropped / forwarded (the 5% loss)",
                String.format(Locale.ROOT, "%,d / %,d", r.relayDropped(), r.relayForwarded()));
        row(md, "DUT answered hello at the end", r.aliveAtEnd() ? "yes" : "NO");
        row(md, "DUT exit after SIGTERM", r.stopMillis() < 0 ? "had to be killed" : r.stopMillis() + " ms");
        md.append("\n## Hostile mix\n\n| Kind | Packets |\n| --- | --- |\n");
        for (int k = 0; k < HostilePackets.KINDS.length; k++) {
            row(md, HostilePackets.KINDS[k], String.format(Locale.ROOT, "%,d", r.hostileByKind()[k]));
        }
        md.append("\n## DUT counters at the end (non-zero)\n\n");
        md.append("Packets the kernel dropped before the DUT read them (a full socket buffer) appear in none.\n\n");
        md.append("| Counter | Value |\n| --- | --- |\n");
        for (final Map.Entry<String, Long> counter : r.dutCounters().entrySet()) {
            row(md, "`" + counter.getKey() + "`", String.format(Locale.ROOT, "%,d", counter.getValue()));
        }
        md.append(NOTES);
        final Path file = directory.resolve("soak.md");
        Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static void row(final StringBuilder md, final String name, final String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    private static String mib(final long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}

package org.mrconf.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code metaroce bench udp}: two reference endpoints, each a soft DUT in its own JVM, moving WRITEs over
 * loopback UDP, beside a plain UDP blaster (two more JVMs, same socket kind, buffers and datagram length,
 * no protocol) run in the same invocation as the machine's limit. Loss, where asked for, is dropped at
 * each endpoint's receive socket (data one way, ACKs the other), seeded.
 *
 * <p>Goodput is WRITE payload bytes over wall time from the first post to the last completion, as the
 * controlling process sees it through the control channel; the blaster's is its received datagrams
 * times the payload such a datagram carries (4096 bytes), over the time from its first to its last one.
 */
public final class UdpBenchmark {
    /** One WRITE size: how many to move and how many may be outstanding at once. */
    public record Write(int bytes, int count, int outstanding) {}

    /** What to run. */
    public record Settings(
            List<Integer> paths,
            List<Write> writes,
            double loss,
            long blastMillis,
            long lineRateBps,
            String maxHeap,
            int rounds,
            long seed) {
        int regionBytes() {
            return writes.stream().mapToInt(Write::bytes).max().orElseThrow();
        }
    }

    /** One measured row; {@code writeBytes} 0 for the blaster. */
    public record Row(
            String kind,
            int paths,
            int writeBytes,
            double loss,
            double goodputGbps,
            int messages,
            int succeeded,
            double p50Ms,
            double p99Ms,
            long retransmissions,
            long timeouts,
            long injectedDrops,
            long socketDrops,
            boolean dataIntact,
            int round) {
        boolean isBlaster() {
            return writeBytes == 0;
        }

        Row inRound(final int number) {
            return new Row(
                    kind,
                    paths,
                    writeBytes,
                    loss,
                    goodputGbps,
                    messages,
                    succeeded,
                    p50Ms,
                    p99Ms,
                    retransmissions,
                    timeouts,
                    injectedDrops,
                    socketDrops,
                    dataIntact,
                    number);
        }

        /** What the row measures, the same in every round. */
        String key() {
            return kind + "/" + paths + "/" + writeBytes + "/" + loss;
        }
    }

    static final String BLASTER = "UDP blaster";
    static final String METAROCE = "MetaRoCE";

    /** Payload of one data packet at the endpoint's default MTU (clause 4.1.9): what the blaster's datagram stands for. */
    static final int PAYLOAD_BYTES = 4096;
    /** UDP payload of such a packet: data header 36, RETH 12, payload, CRC 4. */
    static final int DATAGRAM_BYTES = 36 + 12 + PAYLOAD_BYTES + 4;

    private static final long BASE = 0x1000_0000L;
    private static final int CHUNK = 512 * 1024;
    private static final long START_TIMEOUT_MS = 60_000;

    private UdpBenchmark() {}

    /**
     * Runs {@code settings.rounds()} rounds; in each, for each path count, the blaster and then every WRITE
     * size lossless and lossy back to back, so that the load other users put on the machine falls on a
     * row and its baselines alike. Returns every round's rows.
     */
    public static List<Row> run(final Settings settings, final PrintWriter progress) throws Exception {
        final List<Row> rows = new ArrayList<>();
        try (Pair lossless = Pair.start(settings, 0, progress);
                Pair lossy = settings.loss() > 0 ? Pair.start(settings, settings.loss(), progress) : null) {
            for (int round = 1; round <= settings.rounds(); round++) {
                progress.println("round " + round + " of " + settings.rounds());
                for (final int paths : settings.paths()) {
                    rows.add(report(progress, blast(settings, paths).inRound(round)));
                    for (final Write write : settings.writes()) {
                        rows.add(report(progress, lossless.move(write, paths).inRound(round)));
                        if (lossy != null) {
                            rows.add(report(progress, lossy.move(write, paths).inRound(round)));
                        }
                    }
                }
            }
        }
        return rows;
    }

    private static Row blast(final Settings settings, final int sockets) throws Exception {
        try (ChildJvm sink = ChildJvm.start(settings.maxHeap(), "sink")) {
            final int port = Integer.parseInt(sink.await("READY", START_TIMEOUT_MS)[1]);
            try (ChildJvm source = ChildJvm.start(
                    settings.maxHeap(),
                    "source",
                    Integer.toString(port),
                    Integer.toString(DATAGRAM_BYTES),
                    Long.toString(settings.blastMillis()),
                    Integer.toString(sockets))) {
                source.await("READY", START_TIMEOUT_MS);
                final long socketDropsBefore = KernelUdp.receiveBufferErrors();
                final String[] result = sink.await("RESULT", settings.blastMillis() + START_TIMEOUT_MS);
                source.await("SENT", START_TIMEOUT_MS);
                final long datagrams = Long.parseLong(result[1]);
                final long socketDrops = KernelUdp.receiveBufferErrors() - socketDropsBefore;
                final long ns = Math.max(1, Long.parseLong(result[3]));
                return new Row(
                        BLASTER,
                        sockets,
                        0,
                        0,
                        datagrams * PAYLOAD_BYTES * 8.0 / ns,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        socketDrops,
                        true,
                        0);
            }
        }
    }

    /** Two endpoint processes dropping {@code loss}, a region each, a connection per path count. */
    private static final class Pair implements AutoCloseable {
        private final ChildJvm a;
        private final ChildJvm b;
        private final LineClient sender;
        private final LineClient receiver;
        private final long sourceKey;
        private final long sinkKey;
        private final double loss;
        private final byte[] pattern;

        private Pair(final Settings settings, final double loss, final ChildJvm a, final ChildJvm b) throws Exception {
            this.a = a;
            this.b = b;
            this.loss = loss;
            final String[] readyA = a.await("READY", START_TIMEOUT_MS);
            final String[] readyB = b.await("READY", START_TIMEOUT_MS);
            this.sender = control(readyA[2]);
            this.receiver = control(readyB[2]);
            final int region = settings.regionBytes();
            this.sourceKey = register(sender, region, "[\"LOCAL_WRITE\"]");
            this.sinkKey = register(receiver, region, "[\"LOCAL_WRITE\",\"REMOTE_WRITE\"]");
            this.pattern = new byte[region];
            new SplittableRandom(settings.seed()).nextBytes(pattern);
            for (int offset = 0; offset < region; offset += CHUNK) {
                sender.call(
                        "write_region",
                        "{\"key\":" + sourceKey + ",\"address\":\"" + hex(BASE + offset) + "\",\"data\":\""
                                + Base64.getEncoder()
                                        .encodeToString(
                                                Arrays.copyOfRange(pattern, offset, Math.min(region, offset + CHUNK)))
                                + "\"}");
            }
            for (final int paths : settings.paths()) {
                sender.call("create_connection", connection(paths, readyB[1], paths));
                receiver.call("create_connection", connection(paths, readyA[1], paths));
                // Warm-up: the JIT compiles the hot paths of both processes before anything is timed.
                for (final Write write : settings.writes()) {
                    move(write, paths);
                }
            }
        }

        static Pair start(final Settings settings, final double loss, final PrintWriter progress) throws Exception {
            progress.printf(Locale.ROOT, "starting two endpoints dropping %.1f%% and warming them up%n", loss * 100);
            progress.flush();
            final ChildJvm a = endpoint(settings, loss, settings.seed());
            try {
                final ChildJvm b = endpoint(settings, loss, settings.seed() + 1);
                try {
                    return new Pair(settings, loss, a, b);
                } catch (final Exception | Error e) {
                    b.close();
                    throw e;
                }
            } catch (final Exception | Error e) {
                a.close();
                throw e;
            }
        }

        Row move(final Write write, final int paths) {
            return UdpBenchmark.move(sender, receiver, write, sourceKey, sinkKey, paths, loss, pattern);
        }

        @Override
        public void close() throws Exception {
            try (ChildJvm first = a;
                    ChildJvm second = b;
                    LineClient s = sender;
                    LineClient r = receiver) {
                // closes all four, the clients first
            }
        }
    }

    private static ChildJvm endpoint(final Settings settings, final double loss, final long seed) throws Exception {
        return ChildJvm.start(
                settings.maxHeap(),
                "endpoint",
                Long.toString(settings.lineRateBps()),
                Double.toString(loss),
                Long.toString(seed));
    }

    /** Moves {@code write.count()} WRITEs on the connection of {@code paths} paths and measures them. */
    private static Row move(
            final LineClient sender,
            final LineClient receiver,
            final Write write,
            final long sourceKey,
            final long sinkKey,
            final int paths,
            final double loss,
            final byte[] pattern) {
        final long retransmitsBefore = counter(sender, "tx_retransmissions");
        final long timeoutsBefore = counter(sender, "rto_expirations");
        final long dropsBefore = counter(sender, "x_injected_drops") + counter(receiver, "x_injected_drops");
        final long socketDropsBefore = KernelUdp.receiveBufferErrors();
        final int slots = pattern.length / write.bytes();
        final long[] postedNs = new long[write.count()];
        final long[] latencyNs = new long[write.count()];
        int posted = 0;
        int done = 0;
        int succeeded = 0;
        final long startNs = System.nanoTime();
        long endNs = startNs;
        final long deadlineNs = startNs + 600_000_000_000L;
        while (done < write.count()) {
            if (System.nanoTime() - deadlineNs > 0) {
                throw new IllegalStateException("WRITEs of " + write.bytes() + " bytes on " + paths
                        + " path(s) did not complete within 10 minutes: " + done + " of " + write.count());
            }
            while (posted < write.count() && posted - done < write.outstanding()) {
                final long address = BASE + (long) (posted % slots) * write.bytes();
                postedNs[posted] = System.nanoTime();
                sender.call(
                        "post_write",
                        "{\"connection\":" + paths + ",\"stream\":0,\"key\":" + sourceKey + ",\"address\":\""
                                + hex(address) + "\",\"length\":" + write.bytes() + ",\"remoteAddress\":\""
                                + hex(address) + "\",\"remoteKey\":" + sinkKey + ",\"wrId\":" + posted + "}");
                posted++;
            }
            for (final JsonNode completion : sender.call("poll_completions", "{\"max\":64,\"waitMs\":100}")
                    .get("completions")) {
                endNs = System.nanoTime();
                final int wrId = completion.get("wrId").asInt();
                latencyNs[wrId] = endNs - postedNs[wrId];
                done++;
                if ("SUCCESS".equals(completion.get("status").asText())) {
                    succeeded++;
                }
            }
        }
        final long socketDrops = KernelUdp.receiveBufferErrors() - socketDropsBefore;
        final double seconds = (endNs - startNs) / 1e9;
        final long[] sorted = latencyNs.clone();
        Arrays.sort(sorted);
        final boolean intact = landed(receiver, sinkKey, pattern, Math.min(write.count(), slots) * write.bytes());
        return new Row(
                METAROCE,
                paths,
                write.bytes(),
                loss,
                (double) write.count() * write.bytes() * 8 / seconds / 1e9,
                write.count(),
                succeeded,
                percentile(sorted, 0.50) / 1e6,
                percentile(sorted, 0.99) / 1e6,
                counter(sender, "tx_retransmissions") - retransmitsBefore,
                counter(sender, "rto_expirations") - timeoutsBefore,
                counter(sender, "x_injected_drops") + counter(receiver, "x_injected_drops") - dropsBefore,
                socketDrops,
                intact,
                0);
    }

    /** Whether the receiver's region holds the sender's bytes: the first, a middle and the last 64 KiB written. */
    private static boolean landed(final LineClient receiver, final long key, final byte[] pattern, final int length) {
        final int probe = Math.min(64 * 1024, length);
        for (final int offset : new int[] {0, (length / 2) & ~4095, length - probe}) {
            final byte[] actual = Base64.getDecoder()
                    .decode(receiver.call(
                                    "read_region",
                                    "{\"key\":" + key + ",\"address\":\"" + hex(BASE + offset) + "\",\"length\":"
                                            + probe + "}")
                            .get("data")
                            .asText());
            if (!Arrays.equals(actual, Arrays.copyOfRange(pattern, offset, offset + probe))) {
                return false;
            }
        }
        return true;
    }

    private static long counter(final LineClient client, final String name) {
        return client.call("read_counters", "{}").path("counters").path(name).asLong(0);
    }

    private static long register(final LineClient client, final int length, final String access) {
        return client.call(
                        "register_region",
                        "{\"address\":\"" + hex(BASE) + "\",\"length\":" + length + ",\"access\":" + access + "}")
                .get("key")
                .asLong();
    }

    private static String connection(final int id, final String peerPort, final int paths) {
        return "{\"localId\":" + id + ",\"peerId\":" + id + ",\"peerAddress\":\"127.0.0.1\",\"peerPort\":" + peerPort
                + ",\"paths\":" + paths + ",\"streams\":1}";
    }

    private static LineClient control(final String port) throws Exception {
        return LineClient.tcp(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(port)));
    }

    private static String hex(final long value) {
        return "0x" + Long.toHexString(value);
    }

    private static long percentile(final long[] sorted, final double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }

    private static Row report(final PrintWriter progress, final Row row) {
        progress.printf(
                Locale.ROOT,
                "%-11s %d path(s) %s loss %.1f%%: %.2f Gbit/s%s%n",
                row.kind(),
                row.paths(),
                row.isBlaster() ? "" : row.writeBytes() / 1024 + " KiB",
                row.loss() * 100,
                row.goodputGbps(),
                row.isBlaster()
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", %d of %d succeeded, %d retransmissions, intact %s",
                                row.succeeded(),
                                row.messages(),
                                row.retransmissions(),
                                row.dataIntact()));
        progress.flush();
        return row;
    }
}

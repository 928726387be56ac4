package org.mrconf.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.mrconf.softdut.SoftDut;
import org.mrconf.softdut.SoftDutOptions;

/**
 * The bounded-memory soak: a reference soft DUT in a child JVM with a small heap takes a stream of
 * hostile CRC-valid packets from one loopback address while a legitimate peer (a second soft DUT, in
 * this process) writes to it through a lossy relay from another. It records the DUT's heap after GC at
 * the start and the end, what the DUT dropped per counter, the legitimate WRITEs' latency, and whether
 * every one of them completed and landed.
 *
 * <p>Addresses: the DUT and the peer on 127.0.0.1, the attacker on 127.0.0.2 (Linux routes all of
 * 127/8 to loopback); the DUT has one connection for the peer and two for the attacker (one for the
 * packets that try to make it allocate, one that the attacker may rightly fail). Nothing leaves the machine.
 */
public final class SoakBenchmark {
    /** What to run. */
    public record Settings(long hostilePackets, String maxHeap, double loss, int minMessages, long seed) {}

    /** What the run measured. */
    public record Result(
            Settings settings,
            long heapStartBytes,
            long heapEndBytes,
            long hostileSent,
            long[] hostileByKind,
            double hostileSeconds,
            int messages,
            int succeeded,
            boolean dataIntact,
            double p50Micros,
            double p99Micros,
            double maxMicros,
            long relayDropped,
            long relayForwarded,
            Map<String, Long> dutCounters,
            boolean aliveAtEnd,
            long stopMillis) {}

    private static final int REGION_BYTES = 1 << 20;
    private static final int MESSAGE_BYTES = 64 * 1024;
    private static final int OUTSTANDING = 4;
    private static final long BASE = 0x1000_0000L;
    private static final InetAddress LOOPBACK = address(127, 0, 0, 1);
    private static final InetAddress ATTACKER = address(127, 0, 0, 2);

    private SoakBenchmark() {}

    public static Result run(final Settings settings, final PrintWriter progress) throws Exception {
        final int udpPort = freePort();
        final int controlPort = freePort();
        try (ChildDut dut = ChildDut.start(settings.maxHeap(), udpPort, controlPort);
                LineClient control = LineClient.tcp(new InetSocketAddress(LOOPBACK, controlPort));
                SoftDut peer = SoftDut.start(SoftDutOptions.builder()
                        .bindAddress(LOOPBACK)
                        .udpPort(0)
                        .controlPort(-1)
                        .build());
                LineClient peerControl = LineClient.inProcess(peer::control);
                LossyRelay toDut = new LossyRelay(new InetSocketAddress(LOOPBACK, udpPort), settings.loss(), 11);
                LossyRelay toPeer =
                        new LossyRelay(new InetSocketAddress(LOOPBACK, peer.udpPort()), settings.loss(), 12);
                DatagramChannel attacker = DatagramChannel.open().bind(new InetSocketAddress(ATTACKER, 0))) {
            final long dutKey = control.call(
                            "register_region",
                            "{\"address\":\"0x" + Long.toHexString(BASE) + "\",\"length\":" + REGION_BYTES
                                    + ",\"access\":[\"LOCAL_WRITE\",\"REMOTE_WRITE\",\"REMOTE_READ\"]}")
                    .get("key")
                    .asLong();
            // The attacker's own region: its WRITEs and READs pass protection there, never in the peer's.
            final long attackerKey = control.call(
                            "register_region",
                            "{\"address\":\"0x20000000\",\"length\":" + REGION_BYTES
                                    + ",\"access\":[\"LOCAL_WRITE\",\"REMOTE_WRITE\",\"REMOTE_READ\"]}")
                    .get("key")
                    .asLong();
            control.call("create_connection", connection(1, toPeer.port(), "127.0.0.1", 4, 1));
            control.call("create_connection", connection(2, 9, "127.0.0.2", 256, 65536));
            control.call("create_connection", connection(3, 9, "127.0.0.2", 16, 4));
            final long peerKey = peerControl
                    .call(
                            "register_region",
                            "{\"address\":\"0x" + Long.toHexString(BASE) + "\",\"length\":" + REGION_BYTES
                                    + ",\"access\":[\"LOCAL_WRITE\"]}")
                    .get("key")
                    .asLong();
            final byte[] pattern = pattern(REGION_BYTES, settings.seed());
            for (int offset = 0; offset < REGION_BYTES; offset += 512 * 1024) {
                peerControl.call(
                        "write_region",
                        "{\"key\":" + peerKey + ",\"address\":\"0x" + Long.toHexString(BASE + offset) + "\",\"data\":\""
                                + Base64.getEncoder()
                                        .encodeToString(Arrays.copyOfRange(pattern, offset, offset + 512 * 1024))
                                + "\"}");
            }
            peerControl.call("create_connection", connection(1, toDut.port(), "127.0.0.1", 4, 1));
            final long heapStart = dut.heapAfterGcBytes();
            progress.printf("soak: DUT heap after GC at start: %.1f MiB%n", heapStart / 1048576.0);

            final Attack attack = new Attack(settings, attackerKey, attacker, udpPort);
            final Thread attackThread = new Thread(attack, "soak-attacker");
            attackThread.setDaemon(true);
            final long startNs = System.nanoTime();
            attackThread.start();

            final List<Long> latenciesNs = new ArrayList<>();
            final Map<Long, Long> postedNs = new LinkedHashMap<>();
            int posted = 0;
            int succeeded = 0;
            int done = 0;
            final long deadlineNs = startNs + TimeUnit.MINUTES.toNanos(5);
            while ((attackThread.isAlive() || done < settings.minMessages()) && System.nanoTime() < deadlineNs) {
                while (posted - done < OUTSTANDING) {
                    final long offset = (long) (posted % (REGION_BYTES / MESSAGE_BYTES)) * MESSAGE_BYTES;
                    postedNs.put((long) posted, System.nanoTime());
                    peerControl.call(
                            "post_write",
                            "{\"connection\":1,\"stream\":0,\"key\":" + peerKey + ",\"address\":\"0x"
                                    + Long.toHexString(BASE + offset) + "\",\"length\":" + MESSAGE_BYTES
                                    + ",\"remoteAddress\":\"0x" + Long.toHexString(BASE + offset)
                                    + "\",\"remoteKey\":" + dutKey + ",\"wrId\":" + posted + "}");
                    posted++;
                }
                final JsonNode completions = peerControl
                        .call("poll_completions", "{\"max\":16,\"waitMs\":200}")
                        .get("completions");
                for (final JsonNode completion : completions) {
                    final long wrId = completion.get("wrId").asLong();
                    latenciesNs.add(System.nanoTime() - postedNs.remove(wrId));
                    done++;
                    if ("SUCCESS".equals(completion.get("status").asText())) {
                        succeeded++;
                    }
                }
            }
            attack.stop();
            attackThread.join(10_000);
            while (done < posted && System.nanoTime() < deadlineNs + TimeUnit.SECONDS.toNanos(30)) {
                for (final JsonNode completion : peerControl
                        .call("poll_completions", "{\"max\":16,\"waitMs\":200}")
                        .get("completions")) {
                    latenciesNs.add(System.nanoTime()
                            - postedNs.remove(completion.get("wrId").asLong()));
                    done++;
                    if ("SUCCESS".equals(completion.get("status").asText())) {
                        succeeded++;
                    }
                }
            }
            final boolean intact = regionEquals(
                    control, dutKey, pattern, Math.min(posted, REGION_BYTES / MESSAGE_BYTES) * MESSAGE_BYTES);
            final Map<String, Long> counters = new TreeMap<>();
            control.call("read_counters", "{}").get("counters").fields().forEachRemaining(e -> {
                if (e.getValue().asLong() != 0) {
                    counters.put(e.getKey(), e.getValue().asLong());
                }
            });
            final long heapEnd = dut.heapAfterGcBytes();
            final boolean alive = dut.isAlive() && control.call("hello", "{}").has("protocol");
            final long stopMillis = dut.stop();
            final long[] sorted =
                    latenciesNs.stream().mapToLong(Long::longValue).sorted().toArray();
            return new Result(
                    settings,
                    heapStart,
                    heapEnd,
                    attack.sent,
                    attack.byKind,
                    attack.seconds,
                    posted,
                    succeeded,
                    intact,
                    percentile(sorted, 0.50) / 1000.0,
                    percentile(sorted, 0.99) / 1000.0,
                    sorted.length == 0 ? 0 : sorted[sorted.length - 1] / 1000.0,
                    toDut.dropped() + toPeer.dropped(),
                    toDut.forwarded() + toPeer.forwarded(),
                    counters,
                    alive,
                    stopMillis);
        }
    }

    /** Sends the hostile packets as fast as the socket takes them. */
    private static final class Attack implements Runnable {
        private final Settings settings;
        private final HostilePackets packets;
        private final DatagramChannel attacker;
        private final InetSocketAddress dut;
        final long[] byKind = new long[HostilePackets.KINDS.length];
        volatile long sent;
        volatile double seconds;
        private volatile boolean stopped;

        Attack(final Settings settings, final long key, final DatagramChannel attacker, final int udpPort) {
            this.settings = settings;
            this.packets = new HostilePackets(settings.seed(), 2, 3, 1, key);
            this.attacker = attacker;
            this.dut = new InetSocketAddress(LOOPBACK, udpPort);
        }

        @Override
        public void run() {
            final ByteBuffer buffer = ByteBuffer.allocateDirect(2048);
            final long start = System.nanoTime();
            try {
                for (long i = 0; i < settings.hostilePackets() && !stopped; i++) {
                    final int length = packets.next(buffer);
                    buffer.limit(length).position(0);
                    // Every packet leaves from the attacker's address; those naming the peer's connection
                    // therefore come from an address that connection does not use.
                    attacker.send(buffer, dut);
                    buffer.clear();
                    byKind[packets.lastKind()]++;
                    sent = i + 1;
                    if ((i & 0x3FF) == 0) {
                        Thread.onSpinWait();
                    }
                }
            } catch (final Exception e) {
                throw new IllegalStateException("the attacker stopped: " + e, e);
            } finally {
                seconds = (System.nanoTime() - start) / 1e9;
            }
        }

        void stop() {
            stopped = true;
        }
    }

    /** Whether the DUT's region holds the peer's bytes over the first {@code length} bytes it wrote. */
    private static boolean regionEquals(
            final LineClient control, final long key, final byte[] expected, final int length) {
        for (int offset = 0; offset < length; offset += MESSAGE_BYTES) {
            final byte[] actual = Base64.getDecoder()
                    .decode(control.call(
                                    "read_region",
                                    "{\"key\":" + key + ",\"address\":\"0x" + Long.toHexString(BASE + offset)
                                            + "\",\"length\":" + MESSAGE_BYTES + "}")
                            .get("data")
                            .asText());
            if (!Arrays.equals(actual, Arrays.copyOfRange(expected, offset, offset + MESSAGE_BYTES))) {
                return false;
            }
        }
        return true;
    }

    private static String connection(
            final int id, final int peerPort, final String peerAddress, final int paths, final int streams) {
        return "{\"localId\":" + id + ",\"peerId\":" + id + ",\"peerAddress\":\"" + peerAddress + "\",\"peerPort\":"
                + peerPort + ",\"paths\":" + paths + ",\"streams\":" + streams + "}";
    }

    private static byte[] pattern(final int length, final long seed) {
        final byte[] bytes = new byte[length];
        new java.util.SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    private static long percentile(final long[] sorted, final double p) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, LOOPBACK)) {
            return socket.getLocalPort();
        }
    }

    private static InetAddress address(final int a, final int b, final int c, final int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (final java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}

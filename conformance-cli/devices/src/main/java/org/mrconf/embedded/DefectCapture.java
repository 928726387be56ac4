package org.mrconf.embedded;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.SplittableRandom;
import org.mrconf.defect.Defects;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.LinkImpairment;
import org.mrconf.fabric.PacketFate;
import org.mrconf.fabric.RandomJitter;
import org.mrconf.fabric.TapEvent;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.sim.SimulatedCluster;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Completion;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;
import org.mrconf.wire.Opcode;

/**
 * A capture of two reference endpoints on the simulated fabric, one of them ({@link #DEFECTIVE}) committing the
 * defects it is given, the other ({@link #CLEAN}) conformant: the input of {@code analyze} in self-validation. The
 * traffic exercises every clause the analyser judges: WRITEs, SENDs and READs both ways over 4 paths, data packets
 * lost (so SACK-driven resends show), all data from the defective end blacked out for a while (so timeouts, backoff, re-pathing and a full send window show), and SENDs to the defective end before it posts a receive (so it
 * NACKs them RECEIVER_NOT_READY), and WRITEs with a key the defective end never registered, on a stream of their own
 * (so it NACKs them, on whichever path each came). A capture stops at {@value #MAX_FRAMES} frames.
 *
 * <p>The tap sees each data packet as its sender hands it to the fabric (so lost ones too) and each ACK, NACK and
 * PROBE as it reaches its destination (so a lost ACK is not in it): the capture then holds every ACK and NACK a
 * sender gets, when it gets it, and no other, which is what {@code analyze} assumes of a capture. The
 * simulation is seeded and virtual-timed, so the same seed and defects give the same capture byte for byte.
 */
public final class DefectCapture {
    /** The end committing the defects (node 0). */
    public static final String DEFECTIVE = address(0);

    /** The conformant end (node 1). */
    public static final String CLEAN = address(1);

    private static final int PATHS = 4;
    private static final int STREAMS = 3;
    private static final int ID_DEFECTIVE = 1;
    private static final int ID_CLEAN = 2;
    private static final int MTU = 1500;
    private static final int AREA = 16 << 20;
    private static final long SOURCE = 0x1000_0000L;
    private static final long TARGET = 0x3000_0000L;
    private static final long SINK = 0x2000_0000L;
    private static final long RECEIVES = 0x5000_0000L;
    private static final double DATA_LOSS = 0.01;
    private static final long BLACKOUT_FROM_NS = 1_000_000;
    private static final long BLACKOUT_UNTIL_NS = 4_000_000;
    private static final long SIMULATED_NS = 12_000_000;
    private static final int CLEAN_SENDS = 8;
    private static final int BAD_WRITES = 12;
    /** A defect that floods the fabric (go-back-N) makes captures without end: this many frames are plenty. */
    private static final long MAX_FRAMES = 30_000;

    private static final Instant EPOCH = Instant.ofEpochSecond(1_700_000_000L);

    private DefectCapture() {}

    /** Writes the capture to {@code file}; returns the frames written. */
    public static long write(final Path file, final long seed, final Defects defects) throws CaptureFileException {
        final LinkConfig link = LinkConfig.DEFAULT.withRateBps(25_000_000_000L).withPropagationNs(2_000);
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(PATHS)
                .route(link)
                .downlink(link)
                .seed(seed)
                .build());
        // A path window above the 256-PSN send window, so that the send window is what binds in the blackout.
        final EndpointConfig config = EndpointConfig.builder()
                .mtu(MTU)
                .windows(1024, 8192, 65536)
                .entropySeed(seed)
                .build();
        final Endpoint defective =
                cluster.addEndpoint(config.toBuilder().defects(defects).build());
        final Endpoint clean =
                cluster.addEndpoint(config.toBuilder().entropySeed(seed + 100).build());
        cluster.connect(0, ID_DEFECTIVE, 1, ID_CLEAN, PATHS, STREAMS);
        for (int route = 0; route < PATHS; route++) {
            cluster.fabric()
                    .route(0, 1, route)
                    .impairment(new DataLoss(DATA_LOSS, BLACKOUT_FROM_NS, BLACKOUT_UNTIL_NS, seed * 31 + route)
                            .then(new RandomJitter(2_000, seed * 37 + route)));
            cluster.fabric()
                    .route(1, 0, route)
                    .impairment(new DataLoss(DATA_LOSS, 0, 0, seed * 41 + route)
                            .then(new RandomJitter(2_000, seed * 43 + route)));
        }
        final long[] frames = {0};
        try (PcapWriter writer = PcapWriter.create(file)) {
            cluster.fabric().tap((nowNs, event, where, packet) -> {
                final byte[] bytes = new byte[packet.length()];
                packet.buffer().duplicate().get(bytes);
                // Data as its sender hands it over (so a loss is still seen); ACKs, NACKs and PROBEs as they reach
                // the data sender (so the capture knows what the sender knows, when it knows it).
                final TapEvent wanted = isData(bytes) ? TapEvent.SENT : TapEvent.DELIVERED;
                if (event != wanted) {
                    return;
                }
                writer.write(UdpFrame.builder()
                        .ips(address(packet.srcNode()), address(packet.dstNode()))
                        .srcPort(packet.srcPort())
                        .dstPort(UdpFrame.METAROCE_PORT)
                        .ecn(Ecn.fromCodepoint(packet.ecn()))
                        .payload(bytes)
                        .timestamp(EPOCH.plusNanos(nowNs))
                        .build());
                frames[0]++;
            });
            traffic(cluster, defective, clean);
            // A fixed stretch of virtual time: the clean exchange ends well within it, and a defect that stops the
            // traffic (a receiver dropping everything) still shows its timeouts. Completions are drained as they come.
            cluster.runUntil(() -> drain(defective) + drain(clean) < 0 || frames[0] >= MAX_FRAMES, SIMULATED_NS);
        }
        return frames[0];
    }

    /** Posts the work requests. */
    private static void traffic(final SimulatedCluster cluster, final Endpoint defective, final Endpoint clean) {
        final MemoryRegion sourceD = defective.registerRegion(SOURCE, AREA, AccessFlags.ALL);
        final MemoryRegion targetD = defective.registerRegion(TARGET, AREA, AccessFlags.ALL);
        final MemoryRegion sinkD = defective.registerRegion(SINK, AREA, AccessFlags.ALL);
        final MemoryRegion receivesD = defective.registerRegion(RECEIVES, AREA, AccessFlags.ALL);
        final MemoryRegion sourceC = clean.registerRegion(SOURCE, AREA, AccessFlags.ALL);
        final MemoryRegion targetC = clean.registerRegion(TARGET, AREA, AccessFlags.ALL);
        final MemoryRegion receivesC = clean.registerRegion(RECEIVES, AREA, AccessFlags.ALL);
        long id = 1;
        // The defective end: a WRITE that fills a path's send window while its ACKs are lost, a SEND, a READ, and a
        // WRITE in
        // flight when the blackout begins.
        defective.postWrite(ID_DEFECTIVE, 0, sourceD.key(), SOURCE, 3 << 20, TARGET, targetC.key(), id++);
        clean.postReceive(ID_CLEAN, 1, receivesC.key(), RECEIVES, 64 * 1024, id++);
        defective.postSend(ID_DEFECTIVE, 1, sourceD.key(), SOURCE, 40_000, id++);
        defective.postRead(ID_DEFECTIVE, 0, sinkD.key(), SINK, 200_000, SOURCE, sourceC.key(), id++);
        // The clean end: a WRITE, SENDs before the defective end posts receives, WRITEs it NACKs.
        clean.postWrite(ID_CLEAN, 0, sourceC.key(), SOURCE, 2 << 20, TARGET, targetD.key(), id++);
        for (int i = 0; i < CLEAN_SENDS; i++) {
            clean.postSend(ID_CLEAN, 1, sourceC.key(), SOURCE + i * 4096L, 3_000, id++);
        }
        final long lateWrite = id++;
        cluster.simulator()
                .schedule(
                        BLACKOUT_FROM_NS - 200_000,
                        () -> defective.postWrite(
                                ID_DEFECTIVE, 0, sourceD.key(), SOURCE, 2 << 20, TARGET, targetC.key(), lateWrite));
        for (int i = 0; i < BAD_WRITES; i++) {
            clean.postWrite(ID_CLEAN, 2, sourceC.key(), SOURCE, 1_000, TARGET, targetD.key() ^ 0x5A5A, id++);
        }
        final long receivesId = id;
        cluster.simulator().schedule(3_000_000, () -> {
            for (int i = 0; i < CLEAN_SENDS; i++) {
                defective.postReceive(ID_DEFECTIVE, 1, receivesD.key(), RECEIVES + i * 4096L, 4096, receivesId + i);
            }
        });
    }

    private static int drain(final Endpoint endpoint) {
        int count = 0;
        for (Completion c = endpoint.pollCompletion(); c != null; c = endpoint.pollCompletion()) {
            count++;
        }
        return count;
    }

    private static boolean isData(final byte[] packet) {
        return packet.length > 1 && isData(packet[1] & 0xFF);
    }

    private static boolean isData(final int opcode) {
        return opcode >= Opcode.WRITE.value() && opcode <= Opcode.READ_RESPONSE.value();
    }

    static String address(final int node) {
        return "192.0.2." + (node + 1);
    }

    /** Loses data packets only (never an ACK, NACK or PROBE): a share at random, and all of them in a time window. */
    private static final class DataLoss implements LinkImpairment {
        private final double probability;
        private final long blackoutFromNs;
        private final long blackoutUntilNs;
        private final SplittableRandom random;

        DataLoss(final double probability, final long blackoutFromNs, final long blackoutUntilNs, final long seed) {
            this.probability = probability;
            this.blackoutFromNs = blackoutFromNs;
            this.blackoutUntilNs = blackoutUntilNs;
            this.random = new SplittableRandom(seed);
        }

        @Override
        public void impair(final long nowNs, final PacketFate fate) {
            final ByteBuffer packet = fate.packet().buffer();
            final int opcode = packet.limit() > 8 ? packet.get(1) & 0xFF : -1;
            if (!isData(opcode)) {
                return;
            }
            if ((nowNs >= blackoutFromNs && nowNs < blackoutUntilNs) || random.nextDouble() < probability) {
                fate.drop();
            }
        }
    }
}

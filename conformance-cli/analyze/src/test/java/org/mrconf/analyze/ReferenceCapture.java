package org.mrconf.analyze;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.fabric.Blackout;
import org.mrconf.fabric.FabricConfig;
import org.mrconf.fabric.LinkConfig;
import org.mrconf.fabric.LinkImpairment;
import org.mrconf.fabric.RandomJitter;
import org.mrconf.fabric.RandomLoss;
import org.mrconf.fabric.TapEvent;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.sim.SimulatedCluster;
import org.mrconf.transport.AccessFlags;
import org.mrconf.transport.Completion;
import org.mrconf.transport.Endpoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.MemoryRegion;

/**
 * A capture of the reference talking to itself on the simulated fabric, as a tap beside each sender would see it:
 * WRITEs, SENDs and READs in both directions over 4 lossy, jittery paths, one of which goes black for a while so that
 * timeouts, backoff and re-pathing show. A mutation can rewrite each packet on its way into the file, to play a
 * sender or receiver that breaks a clause.
 */
final class ReferenceCapture {
    static final int PATHS = 4;
    private static final int A = 1;
    private static final int B = 2;
    private static final int AREA = 4 << 20;
    private static final long SOURCE = 0x1000_0000L;
    private static final long TARGET = 0x3000_0000L;
    private static final long SINK = 0x2000_0000L;
    private static final long RECEIVES = 0x5000_0000L;

    private ReferenceCapture() {}

    /** A packet on its way into the capture: its sender's UDP source port, ECN codepoint and MetaRoCE bytes. */
    static final class Sent {
        int sourcePort;
        int ecn;
        byte[] bytes;
        final String sender;

        Sent(final int sourcePort, final int ecn, final byte[] bytes, final String sender) {
            this.sourcePort = sourcePort;
            this.ecn = ecn;
            this.bytes = bytes;
            this.sender = sender;
        }
    }

    /** Rewrites a packet before it is written (and may drop it by returning false); plays a defective end. */
    @FunctionalInterface
    interface Mutation {
        Mutation NONE = sent -> true;

        boolean apply(Sent sent);
    }

    /** Writes the capture to {@code file}; {@code mutation} sees and may rewrite each MetaRoCE packet. */
    static int write(final Path file, final long seed, final Mutation mutation) throws Exception {
        final LinkConfig link = LinkConfig.DEFAULT.withRateBps(25_000_000_000L).withPropagationNs(2_000);
        final SimulatedCluster cluster = new SimulatedCluster(FabricConfig.builder()
                .routeCount(PATHS)
                .route(link)
                .downlink(link)
                .seed(seed)
                .build());
        final EndpointConfig config = EndpointConfig.builder().entropySeed(seed).build();
        final Endpoint a = cluster.addEndpoint(config);
        final Endpoint b =
                cluster.addEndpoint(config.toBuilder().entropySeed(seed + 100).build());
        cluster.connect(0, A, 1, B, PATHS, 2);
        for (int route = 0; route < PATHS; route++) {
            final int r = route;
            cluster.fabric()
                    .routeLinks(route)
                    .forEach(l -> l.impairment(LinkImpairment.chain(
                            new RandomLoss(0.02, seed * 31 + r), new RandomJitter(2_000, seed * 37 + r))));
        }
        cluster.fabric()
                .routeLinks(2)
                .forEach(l -> cluster.fabric().scheduleImpairment(300_000, l, Blackout.from(300_000)));
        final int[] count = {0};
        try (PcapWriter writer = PcapWriter.create(file)) {
            cluster.fabric().tap((nowNs, event, where, packet) -> {
                if (event != TapEvent.SENT) {
                    return;
                }
                final ByteBuffer view = packet.buffer();
                final byte[] bytes = new byte[packet.length()];
                view.duplicate().get(bytes);
                final Sent sent = new Sent(packet.srcPort(), packet.ecn(), bytes, address(packet.srcNode()));
                if (!mutation.apply(sent)) {
                    return;
                }
                writer.write(UdpFrame.builder()
                        .ips(address(packet.srcNode()), address(packet.dstNode()))
                        .srcPort(sent.sourcePort)
                        .dstPort(UdpFrame.METAROCE_PORT)
                        .ecn(Ecn.fromCodepoint(sent.ecn))
                        .payload(sent.bytes)
                        .timestamp(Instant.ofEpochSecond(1_700_000_000L).plusNanos(nowNs))
                        .build());
                count[0]++;
            });
            final MemoryRegion sourceA = a.registerRegion(SOURCE, AREA, AccessFlags.ALL);
            final MemoryRegion sourceB = b.registerRegion(SOURCE, AREA, AccessFlags.ALL);
            final MemoryRegion targetB = b.registerRegion(TARGET, AREA, AccessFlags.ALL);
            final MemoryRegion targetA = a.registerRegion(TARGET, AREA, AccessFlags.ALL);
            final MemoryRegion sinkA = a.registerRegion(SINK, AREA, AccessFlags.ALL);
            final MemoryRegion receivesB = b.registerRegion(RECEIVES, AREA, AccessFlags.ALL);
            long id = 1;
            for (int round = 0; round < 6; round++) {
                final int length = 256 * 1024 + round * 4099;
                a.postWrite(A, round % 2, sourceA.key(), SOURCE, length, TARGET, targetB.key(), id++);
                b.postWrite(B, 0, sourceB.key(), SOURCE, length / 2, TARGET, targetA.key(), id++);
                b.postReceive(B, 1, receivesB.key(), RECEIVES, 64 * 1024, id++);
                a.postSend(A, 1, sourceA.key(), SOURCE, 40_000, id++);
                a.postRead(A, 0, sinkA.key(), SINK, 100_000, SOURCE, sourceB.key(), id++);
            }
            final List<Completion> done = new ArrayList<>();
            cluster.runUntil(
                    () -> {
                        for (Completion c = a.pollCompletion(); c != null; c = a.pollCompletion()) {
                            done.add(c);
                        }
                        for (Completion c = b.pollCompletion(); c != null; c = b.pollCompletion()) {
                            done.add(c);
                        }
                        return done.size() >= 6 * 5;
                    },
                    2_000_000_000L);
            cluster.runUntil(() -> false, cluster.nowNs() + 20_000_000);
        }
        return count[0];
    }

    static String address(final int node) {
        return "192.0.2." + (node + 1);
    }
}

package org.mrconf.analyze;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.SplittableRandom;
import org.mrconf.pcap.CaptureFileException;
import org.mrconf.pcap.Ecn;
import org.mrconf.pcap.PcapWriter;
import org.mrconf.pcap.UdpFrame;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;
import org.mrconf.wire.PacketFlags;

/**
 * A conformant capture of any length for the analyser benchmark: WRITEs with small payloads sprayed over many paths,
 * 1% of them lost and resent after the gap shows in an ACK, and an ACK per path every few packets. Small packets keep
 * a capture of 10^7 frames around 1.5 GB.
 */
public final class SyntheticCapture {
    private static final int PAYLOAD = 64;
    private static final int ACK_EVERY = 4;
    private static final long CONNECTION = 0x0002_0002L;
    private static final long NS_PER_PACKET = 100;

    private SyntheticCapture() {}

    public static void write(final Path file, final long packets, final int paths, final long seed)
            throws CaptureFileException {
        final SplittableRandom random = new SplittableRandom(seed);
        final PacketEncoder encoder = new PacketEncoder();
        final ByteBuffer data = ByteBuffer.allocate(Opcode.WRITE.packetLength(PAYLOAD));
        final ByteBuffer ack = ByteBuffer.allocate(Opcode.ACK.packetLength(0));
        final long[] nextPsn = new long[paths];
        final long[] lostPsn = new long[paths];
        final int[] sinceAck = new int[paths];
        final long[] lastTimestamp = new long[paths];
        final boolean[] gapReported = new boolean[paths];
        java.util.Arrays.fill(lostPsn, -1);
        final Instant start = Instant.ofEpochSecond(1_700_000_000L);
        long written = 0;
        try (PcapWriter writer = PcapWriter.create(file)) {
            while (written < packets) {
                final int path = (int) (written % paths);
                final long nowNs = written * NS_PER_PACKET;
                // Resent only once an ACK showed the gap (a later PSN received): a SACK-driven resend (clause 6.3.1).
                final boolean resend = gapReported[path];
                final long psn = resend ? lostPsn[path] : nextPsn[path]++;
                final long timestamp = nowNs & 0xFFFF_FFFFL;
                encoder.data(data, 0, Opcode.WRITE)
                        .flags(resend ? PacketFlags.RETRANSMISSION : 0)
                        .destinationConnectionId(CONNECTION)
                        .pathId(path)
                        .psn(psn)
                        .streamId(0)
                        .payloadLength(PAYLOAD)
                        .messageSequenceNumber(psn * paths + path)
                        .messageLength(PAYLOAD)
                        .messageOffset(0)
                        .transmitTimestamp(timestamp)
                        .remoteAddress(0x7000_0000L + ((psn * paths + path) % 1024) * PAYLOAD)
                        .remoteKey(0x77);
                encoder.finish(data, 0, data.capacity());
                frame(writer, "192.0.2.1", "192.0.2.2", 49_152 + path, data, start.plusNanos(nowNs));
                written++;
                final boolean lost = !resend && lostPsn[path] < 0 && random.nextInt(100) == 0;
                if (resend) {
                    lostPsn[path] = -1;
                    gapReported[path] = false;
                } else if (lost) {
                    lostPsn[path] = psn;
                    continue; // the receiver never sees it: no ACK credit
                }
                lastTimestamp[path] = timestamp;
                if (++sinceAck[path] >= ACK_EVERY && written < packets) {
                    sinceAck[path] = 0;
                    final long received = lostPsn[path] >= 0 ? lostPsn[path] : nextPsn[path];
                    final AckFlyweight flyweight = encoder.ack(ack, 0)
                            .destinationConnectionId(0x0001_0001L)
                            .pathId(path)
                            .cumulativePsn(received)
                            .echoedTimestamp(lastTimestamp[path])
                            .rateHint(AckFlyweight.RATE_HINT_NO_LIMIT)
                            .clearSack();
                    if (lostPsn[path] >= 0) {
                        for (long p = lostPsn[path] + 1; p < nextPsn[path]; p++) {
                            flyweight.sackBit((int) (p - lostPsn[path]), true);
                            gapReported[path] = true;
                        }
                    }
                    encoder.finish(ack, 0, ack.capacity());
                    frame(writer, "192.0.2.2", "192.0.2.1", 49_152 + path, ack, start.plusNanos(nowNs + 50));
                    written++;
                }
            }
        }
    }

    private static void frame(
            final PcapWriter writer,
            final String source,
            final String destination,
            final int sourcePort,
            final ByteBuffer packet,
            final Instant at) {
        writer.write(UdpFrame.builder()
                .ips(source, destination)
                .srcPort(sourcePort)
                .dstPort(UdpFrame.METAROCE_PORT)
                .ecn(Ecn.ECT_0)
                .payload(packet.array())
                .timestamp(at)
                .build());
    }
}

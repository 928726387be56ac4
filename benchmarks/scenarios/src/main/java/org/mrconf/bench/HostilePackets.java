package org.mrconf.bench;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketEncoder;

/**
 * A seeded stream of hostile MetaRoCE packets, every one with a correct CRC32C so that it passes the
 * integrity check and reaches the checks behind it. The mix, in roughly equal shares: one packet per
 * new stream id (the memory attack), far-ahead MSNs, SENDs naming receives out of order, READ requests
 * faster than they can be answered, fuzzed header fields on valid opcodes, random bytes with the CRC
 * fixed, and packets for the legitimate peer's connection from the wrong source. Writes into one
 * caller's buffer; allocates nothing per packet.
 */
final class HostilePackets {
    /** The kinds of packet, for the report. */
    static final String[] KINDS = {
        "new stream id",
        "far-ahead MSN",
        "SEND, RSN out of order",
        "READ flood",
        "fuzzed fields",
        "random bytes",
        "wrong source"
    };

    private final SplittableRandom random;
    private final PacketEncoder encoder = new PacketEncoder();
    private final Crc32cTrailer crc = new Crc32cTrailer();
    private final long hostileConnection;
    private final long sacrificialConnection;
    private final long legitimateConnection;
    private final long key;
    private int nextStream;
    /** A counter for timestamps and payload bytes. */
    private long psn;
    /** Next PSN per path of the hostile connection, so that the kinds that should get past the window do. */
    private final long[] pathPsn = new long[256];

    private int lastKind;

    /**
     * @param hostileConnection    the DUT's connection whose peer address the attacker sends from: it takes the
     *                             packets that try to make the DUT allocate
     * @param sacrificialConnection another connection of the attacker's address: it takes the packets that may
     *                             rightly fail it (fuzzed ACKs and NACKs, READs whose responses nobody ACKs)
     * @param legitimateConnection the legitimate peer's connection on the DUT (reached from the wrong source)
     * @param key                  a region key on the DUT, so some WRITEs and READs pass protection
     */
    HostilePackets(
            final long seed,
            final long hostileConnection,
            final long sacrificialConnection,
            final long legitimateConnection,
            final long key) {
        this.random = new SplittableRandom(seed);
        this.hostileConnection = hostileConnection;
        this.sacrificialConnection = sacrificialConnection;
        this.legitimateConnection = legitimateConnection;
        this.key = key;
    }

    /** The kind of the packet {@link #next} wrote last, an index into {@link #KINDS}. */
    int lastKind() {
        return lastKind;
    }

    /** Whether the last packet goes to the legitimate connection (and must be sent from another address). */
    boolean lastTargetsLegitimate() {
        return lastKind == 6;
    }

    /** Writes the next packet at offset 0 and returns its length. */
    int next(final ByteBuffer buffer) {
        lastKind = random.nextInt(KINDS.length);
        psn = (psn + 1) & 0xFFFF_FFFFL;
        return switch (lastKind) {
            case 0 -> write(buffer, hostileConnection, random.nextInt(4), nextStream++ & 0xFFFF, 0, 2, 0, 1);
            case 1 ->
                write(
                        buffer,
                        hostileConnection,
                        4 + random.nextInt(4),
                        random.nextInt(64),
                        random.nextInt(1024),
                        2,
                        0,
                        1);
            case 2 -> send(buffer);
            case 3 -> readRequest(buffer);
            case 4 -> fuzzed(buffer);
            case 5 -> randomBytes(buffer);
            default -> write(buffer, legitimateConnection, 16 + random.nextInt(4), 0, random.nextInt(16), 4096, 0, 64);
        };
    }

    private int write(
            final ByteBuffer buffer,
            final long connection,
            final int path,
            final int stream,
            final long msn,
            final long length,
            final long offset,
            final int payload) {
        encoder.data(buffer, 0, Opcode.WRITE)
                .destinationConnectionId(connection)
                .pathId(path)
                .psn(nextPsn(path))
                .streamId(stream)
                .payloadLength(payload)
                .messageSequenceNumber(msn)
                .messageLength(length)
                .messageOffset(offset)
                .transmitTimestamp(psn)
                .remoteAddress(0x2000_0000L + random.nextInt(1 << 20))
                .remoteKey(key);
        return finishWithPayload(buffer, Opcode.WRITE, payload);
    }

    private int send(final ByteBuffer buffer) {
        final int path = 8 + random.nextInt(4);
        encoder.data(buffer, 0, Opcode.SEND)
                .destinationConnectionId(hostileConnection)
                .pathId(path)
                .psn(nextPsn(path))
                .streamId(random.nextInt(4))
                .payloadLength(16)
                .messageSequenceNumber(random.nextInt(8))
                .messageLength(32)
                .messageOffset(random.nextBoolean() ? 0 : 16)
                .transmitTimestamp(psn)
                .receiveSequenceNumber(random.nextInt(8));
        return finishWithPayload(buffer, Opcode.SEND, 16);
    }

    private int readRequest(final ByteBuffer buffer) {
        final int path = 12 + random.nextInt(4);
        encoder.data(buffer, 0, Opcode.READ_REQUEST)
                .destinationConnectionId(sacrificialConnection)
                .pathId(path)
                .psn(nextPsn(path))
                .streamId(random.nextInt(4))
                .payloadLength(0)
                .messageSequenceNumber(random.nextInt(1024))
                .messageLength(1 + random.nextInt(64 * 1024))
                .messageOffset(0)
                .transmitTimestamp(psn)
                .remoteAddress(0x2000_0000L)
                .remoteKey(key)
                .sinkHandle(random.nextInt());
        return finishWithPayload(buffer, Opcode.READ_REQUEST, 0);
    }

    private int fuzzed(final ByteBuffer buffer) {
        final Opcode opcode = Opcode.values()[random.nextInt(Opcode.values().length)];
        switch (opcode) {
            case ACK -> {
                encoder.ack(buffer, 0)
                        .destinationConnectionId(random.nextBoolean() ? sacrificialConnection : random.nextInt())
                        .pathId(random.nextInt(256))
                        .cumulativePsn(random.nextLong() & 0xFFFF_FFFFL)
                        .sackWord(random.nextInt(4), random.nextLong());
                return encoder.finish(buffer, 0, Opcode.ACK.packetLength(0));
            }
            case NACK -> {
                encoder.nack(buffer, 0)
                        .destinationConnectionId(sacrificialConnection)
                        .pathId(random.nextInt(256))
                        .psn(random.nextLong() & 0xFFFF_FFFFL)
                        .code(NackCode.values()[random.nextInt(NackCode.values().length)])
                        .streamId(random.nextInt(1 << 16))
                        .messageSequenceNumber(random.nextLong() & 0xFFFF_FFFFL)
                        .cumulativePsn(random.nextLong() & 0xFFFF_FFFFL);
                return encoder.finish(buffer, 0, Opcode.NACK.packetLength(0));
            }
            case PROBE -> {
                encoder.probe(buffer, 0)
                        .destinationConnectionId(sacrificialConnection)
                        .pathId(random.nextInt(256));
                return encoder.finish(buffer, 0, Opcode.PROBE.packetLength(0));
            }
            default -> {
                final int payload = opcode == Opcode.READ_REQUEST ? 0 : random.nextInt(256);
                final DataHeaderFlyweight header = encoder.data(buffer, 0, opcode)
                        .destinationConnectionId(sacrificialConnection)
                        .pathId(random.nextInt(256))
                        .psn(random.nextLong() & 0xFFFF_FFFFL)
                        .streamId(random.nextInt(1 << 16))
                        .payloadLength(payload)
                        .messageSequenceNumber(random.nextLong() & 0xFFFF_FFFFL)
                        .messageLength(random.nextLong() & 0xFFFF_FFFFL)
                        .messageOffset(random.nextLong() & 0xFFFF_FFFFL)
                        .transmitTimestamp(psn);
                switch (opcode) {
                    case WRITE -> header.remoteAddress(random.nextLong()).remoteKey(key);
                    case WRITE_WITH_IMMEDIATE ->
                        header.remoteAddress(random.nextLong()).remoteKey(key).immediate(random.nextInt());
                    case SEND -> header.receiveSequenceNumber(random.nextLong() & 0xFFFF_FFFFL);
                    case READ_REQUEST ->
                        header.remoteAddress(random.nextLong()).remoteKey(key).sinkHandle(random.nextInt());
                    case READ_RESPONSE -> header.sinkHandle(random.nextInt());
                    default -> {}
                }
                header.flags(random.nextInt(256));
                return finishWithPayload(buffer, opcode, payload);
            }
        }
    }

    private long nextPsn(final int path) {
        final long next = pathPsn[path];
        pathPsn[path] = (next + 1) & 0xFFFF_FFFFL;
        return next;
    }

    private int randomBytes(final ByteBuffer buffer) {
        final int length = 4 + random.nextInt(600);
        for (int i = 0; i < length; i++) {
            buffer.put(i, (byte) random.nextInt(256));
        }
        crc.write(buffer, 0, length);
        return length;
    }

    private int finishWithPayload(final ByteBuffer buffer, final Opcode opcode, final int payload) {
        final int start = opcode.headerLength();
        for (int i = 0; i < payload; i++) {
            buffer.put(start + i, (byte) (psn + i));
        }
        return encoder.finish(buffer, 0, opcode.packetLength(payload));
    }
}

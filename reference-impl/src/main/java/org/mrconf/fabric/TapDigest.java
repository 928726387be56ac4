package org.mrconf.fabric;

import java.util.zip.CRC32;

/**
 * A {@link PacketTap} that folds every record (time, event, link, addresses, port, route, ECN, length
 * and payload) into a CRC-32, so two runs can be compared for identical event sequences in one number.
 */
public final class TapDigest implements PacketTap {
    private static final int RECORD_LENGTH = 8 + 1 + 4 + 4 + 4 + 4 + 4 + 1 + 4;

    private final CRC32 crc = new CRC32();
    private final byte[] record = new byte[RECORD_LENGTH];
    private byte[] payload = new byte[2048];
    private long records;

    @Override
    public void onPacket(final long nowNs, final TapEvent event, final Link link, final PacketView packet) {
        int index = putLong(0, nowNs);
        record[index++] = (byte) event.ordinal();
        index = putInt(index, link.id());
        index = putInt(index, packet.srcNode());
        index = putInt(index, packet.dstNode());
        index = putInt(index, packet.srcPort());
        index = putInt(index, packet.routeIndex());
        record[index++] = (byte) packet.ecn();
        putInt(index, packet.length());
        crc.update(record, 0, RECORD_LENGTH);

        final int length = packet.length();
        if (payload.length < length) {
            payload = new byte[length];
        }
        packet.buffer().get(0, payload, 0, length);
        crc.update(payload, 0, length);
        records++;
    }

    /** The CRC-32 of all records so far. */
    public long value() {
        return crc.getValue();
    }

    /** How many records have been folded in. */
    public long records() {
        return records;
    }

    @Override
    public String toString() {
        return "TapDigest{records=" + records + ", crc=" + Long.toHexString(value()) + '}';
    }

    private int putLong(final int index, final long value) {
        putInt(index, (int) (value >>> 32));
        return putInt(index + 4, (int) value);
    }

    private int putInt(final int index, final int value) {
        record[index] = (byte) (value >>> 24);
        record[index + 1] = (byte) (value >>> 16);
        record[index + 2] = (byte) (value >>> 8);
        record[index + 3] = (byte) value;
        return index + 4;
    }
}

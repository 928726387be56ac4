package org.mrconf.pcap;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;

/**
 * Builds a minimal pcapng file by hand (pcapng spec, draft-ietf-opsawg-pcapng): one Section Header Block, one
 * Interface Description Block, then Enhanced Packet Blocks. Little-endian, which the byte-order magic records.
 */
final class PcapngBuilder {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final int tsresolDigits;

    /**
     * @param linkType     LINKTYPE_* of the single interface (1 = Ethernet)
     * @param tsresolDigits decimal digits of if_tsresol (6 = µs, 9 = ns), or -1 to omit the option (default µs)
     */
    PcapngBuilder(int linkType, int tsresolDigits) {
        this.tsresolDigits = tsresolDigits < 0 ? 6 : tsresolDigits;
        // SHB: byte-order magic, version 1.0, section length unknown (-1), no options.
        block(
                0x0A0D0D0A,
                ByteBuffer.allocate(16)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(0x1A2B3C4D)
                        .putShort((short) 1)
                        .putShort((short) 0)
                        .putLong(-1L)
                        .array());
        // IDB: link type, reserved, snaplen 0 (no limit), then options.
        ByteBuffer idb = ByteBuffer.allocate(tsresolDigits < 0 ? 8 : 8 + 8 + 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) linkType)
                .putShort((short) 0)
                .putInt(0);
        if (tsresolDigits >= 0) {
            // if_tsresol (code 9, length 1, value padded to 4 bytes), then opt_endofopt.
            idb.putShort((short) 9)
                    .putShort((short) 1)
                    .put((byte) tsresolDigits)
                    .put(new byte[3]);
            idb.putShort((short) 0).putShort((short) 0);
        }
        block(0x00000001, idb.array());
    }

    /** Appends an EPB on interface 0. */
    PcapngBuilder packet(byte[] frame, Instant ts) {
        long units = ts.getEpochSecond() * pow10(tsresolDigits) + ts.getNano() / pow10(9 - tsresolDigits);
        int padded = (frame.length + 3) & ~3;
        ByteBuffer epb = ByteBuffer.allocate(20 + padded)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(0) // interface id
                .putInt((int) (units >>> 32))
                .putInt((int) units) // timestamp high, low
                .putInt(frame.length)
                .putInt(frame.length) // captured, original length
                .put(frame);
        block(0x00000006, epb.array());
        return this;
    }

    byte[] build() {
        return out.toByteArray();
    }

    private void block(int type, byte[] body) {
        int total = 12 + body.length; // type + length + body + trailing length
        ByteBuffer b = ByteBuffer.allocate(total)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(type)
                .putInt(total)
                .put(body)
                .putInt(total);
        out.writeBytes(b.array());
    }

    private static long pow10(int n) {
        long v = 1;
        for (int i = 0; i < n; i++) {
            v *= 10;
        }
        return v;
    }
}

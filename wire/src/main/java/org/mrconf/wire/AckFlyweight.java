package org.mrconf.wire;

import java.util.Objects;

/**
 * The 60-byte ACK (clause 5.3, Table 5-9), with its 256-bit SACK bitmap. Used by the decoder, the
 * encoder, and the senders and receivers that build or read acknowledgements.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |    common header (Table 5-1); psn = cumulative PSN, 16 bytes  |  0
 * +---------------------------------------------------------------+
 * |                       echoed timestamp                        | 16
 * +-------------------------------+-------------------------------+
 * |           CE count            |           reserved            | 20
 * +-------------------------------+-------------------------------+
 * |                    rate hint (Mbit/s)                         | 24
 * +---------------------------------------------------------------+
 * |       SACK bitmap, 32 bytes: bit i is bit (i mod 8), least    | 28
 * |       significant first, of byte 28 + i / 8; it reports       |
 * |       PSN (cumulative PSN + i) mod 2^32; bit 0 must be 0      |
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class AckFlyweight extends HeaderFlyweight<AckFlyweight> {
    public static final int ECHOED_TIMESTAMP_OFFSET = 16;
    public static final int ECHOED_TIMESTAMP_SIZE = 4;
    public static final int CE_COUNT_OFFSET = 20;
    public static final int CE_COUNT_SIZE = 2;
    public static final int RESERVED_OFFSET = 22;
    public static final int RESERVED_SIZE = 2;
    public static final int RATE_HINT_OFFSET = 24;
    public static final int RATE_HINT_SIZE = 4;
    public static final int SACK_BITMAP_OFFSET = 28;
    public static final int SACK_BITMAP_SIZE = 32;
    public static final int HEADER_LENGTH = 60;

    /** Rate hint meaning "no limit". */
    public static final long RATE_HINT_NO_LIMIT = 0xFFFF_FFFFL;
    /** The CE count saturates here. */
    public static final int CE_COUNT_MAX = 0xFFFF;
    /** The bitmap read as 64-bit words: word w holds SACK bits 64w to 64w + 63. */
    public static final int SACK_WORDS = WireConstants.SACK_BITS / Long.SIZE;

    /** The PSN that SACK bit {@code bit} reports for a cumulative PSN: their sum modulo 2^32. */
    public static long sackPsn(long cumulativePsn, int bit) {
        return (cumulativePsn + bit) & WireConstants.MAX_PSN;
    }

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    /** The cumulative PSN: the lowest PSN of the path not yet received (the common psn field). */
    public long cumulativePsn() {
        return psn();
    }

    public AckFlyweight cumulativePsn(long value) {
        return psn(value);
    }

    public long echoedTimestamp() {
        return rawU32(ECHOED_TIMESTAMP_OFFSET);
    }

    public AckFlyweight echoedTimestamp(long value) {
        return rawU32(ECHOED_TIMESTAMP_OFFSET, value);
    }

    public int ceCount() {
        return rawU16(CE_COUNT_OFFSET);
    }

    public AckFlyweight ceCount(int value) {
        return rawU16(CE_COUNT_OFFSET, value);
    }

    public int reserved() {
        return rawU16(RESERVED_OFFSET);
    }

    public AckFlyweight reserved(int value) {
        return rawU16(RESERVED_OFFSET, value);
    }

    public long rateHint() {
        return rawU32(RATE_HINT_OFFSET);
    }

    public AckFlyweight rateHint(long value) {
        return rawU32(RATE_HINT_OFFSET, value);
    }

    /** SACK bit {@code bit}, 0 to 255. */
    public boolean sackBit(int bit) {
        Objects.checkIndex(bit, WireConstants.SACK_BITS);
        return (rawU8(SACK_BITMAP_OFFSET + (bit >>> 3)) & (1 << (bit & 7))) != 0;
    }

    public AckFlyweight sackBit(int bit, boolean value) {
        Objects.checkIndex(bit, WireConstants.SACK_BITS);
        int index = SACK_BITMAP_OFFSET + (bit >>> 3);
        int mask = 1 << (bit & 7);
        int old = rawU8(index);
        return rawU8(index, value ? old | mask : old & ~mask);
    }

    /** Clears all 256 SACK bits. */
    public AckFlyweight clearSack() {
        for (int w = 0; w < SACK_WORDS; w++) {
            sackWord(w, 0L);
        }
        return this;
    }

    /**
     * SACK bits 64w to 64w + 63 as one long, bit j of the result being SACK bit 64w + j. Because the
     * bitmap is least significant bit first within ascending bytes, this is a little-endian read.
     */
    public long sackWord(int word) {
        Objects.checkIndex(word, SACK_WORDS);
        return Long.reverseBytes(rawU64(SACK_BITMAP_OFFSET + word * Long.BYTES));
    }

    public AckFlyweight sackWord(int word, long bits) {
        Objects.checkIndex(word, SACK_WORDS);
        return rawU64(SACK_BITMAP_OFFSET + word * Long.BYTES, Long.reverseBytes(bits));
    }

    /** Number of SACK bits set. */
    public int sackCount() {
        int count = 0;
        for (int w = 0; w < SACK_WORDS; w++) {
            count += Long.bitCount(sackWord(w));
        }
        return count;
    }

    @Override
    protected void appendFields(StringBuilder sb) {
        sb.append(", echoedTimestamp=")
                .append(echoedTimestamp())
                .append(", ceCount=")
                .append(ceCount())
                .append(", rateHint=")
                .append(rateHint() == RATE_HINT_NO_LIMIT ? "unlimited" : Long.toString(rateHint()))
                .append(", sack=[");
        boolean first = true;
        for (int bit = 0; bit < WireConstants.SACK_BITS; bit++) {
            if (sackBit(bit)) {
                sb.append(first ? "" : ",").append(bit);
                first = false;
            }
        }
        sb.append(']');
        if (reserved() != 0) {
            sb.append(", reserved=").append(reserved());
        }
    }
}

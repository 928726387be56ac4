package org.mrconf.wire;

/**
 * The 32-byte NACK (clause 5.4, Table 5-10). Its common path id and psn name the rejected packet.
 * Used by the decoder, the encoder and the endpoints that reject or react to rejected packets.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |  common header (Table 5-1); psn = rejected PSN, 16 bytes      |  0
 * +---------------+---------------+-------------------------------+
 * |     code      |   reserved    |           stream id           | 16
 * +---------------+---------------+-------------------------------+
 * |                 message sequence number (MSN)                 | 20
 * +---------------------------------------------------------------+
 * |                        cumulative PSN                         | 24
 * +---------------------------------------------------------------+
 * |                    retry after (microseconds)                 | 28
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class NackFlyweight extends HeaderFlyweight<NackFlyweight> {
    public static final int CODE_OFFSET = 16;
    public static final int CODE_SIZE = 1;
    public static final int RESERVED_OFFSET = 17;
    public static final int RESERVED_SIZE = 1;
    public static final int STREAM_ID_OFFSET = 18;
    public static final int STREAM_ID_SIZE = 2;
    public static final int MESSAGE_SEQUENCE_NUMBER_OFFSET = 20;
    public static final int MESSAGE_SEQUENCE_NUMBER_SIZE = 4;
    public static final int CUMULATIVE_PSN_OFFSET = 24;
    public static final int CUMULATIVE_PSN_SIZE = 4;
    public static final int RETRY_AFTER_OFFSET = 28;
    public static final int RETRY_AFTER_SIZE = 4;
    public static final int HEADER_LENGTH = 32;

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    /** The code byte as sent, known or not. */
    public int codeValue() {
        return rawU8(CODE_OFFSET);
    }

    public NackFlyweight codeValue(int value) {
        return rawU8(CODE_OFFSET, value);
    }

    /** The code, or {@code null} if Table 9-1 does not define the byte. */
    public NackCode code() {
        return NackCode.fromValue(codeValue());
    }

    public NackFlyweight code(NackCode code) {
        return codeValue(code.value());
    }

    public int reserved() {
        return rawU8(RESERVED_OFFSET);
    }

    public NackFlyweight reserved(int value) {
        return rawU8(RESERVED_OFFSET, value);
    }

    public int streamId() {
        return rawU16(STREAM_ID_OFFSET);
    }

    public NackFlyweight streamId(int value) {
        return rawU16(STREAM_ID_OFFSET, value);
    }

    public long messageSequenceNumber() {
        return rawU32(MESSAGE_SEQUENCE_NUMBER_OFFSET);
    }

    public NackFlyweight messageSequenceNumber(long value) {
        return rawU32(MESSAGE_SEQUENCE_NUMBER_OFFSET, value);
    }

    public long cumulativePsn() {
        return rawU32(CUMULATIVE_PSN_OFFSET);
    }

    public NackFlyweight cumulativePsn(long value) {
        return rawU32(CUMULATIVE_PSN_OFFSET, value);
    }

    public long retryAfter() {
        return rawU32(RETRY_AFTER_OFFSET);
    }

    public NackFlyweight retryAfter(long value) {
        return rawU32(RETRY_AFTER_OFFSET, value);
    }

    @Override
    protected void appendFields(StringBuilder sb) {
        NackCode code = code();
        sb.append(", code=")
                .append(code != null ? code.name() : "0x" + Integer.toHexString(codeValue()))
                .append(", streamId=")
                .append(streamId())
                .append(", msn=")
                .append(messageSequenceNumber())
                .append(", cumulativePsn=")
                .append(cumulativePsn())
                .append(", retryAfter=")
                .append(retryAfter());
        if (reserved() != 0) {
            sb.append(", reserved=").append(reserved());
        }
    }
}

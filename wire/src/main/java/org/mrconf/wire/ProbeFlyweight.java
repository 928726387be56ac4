package org.mrconf.wire;

/**
 * The 20-byte PROBE (clause 5.5, Table 5-11): a path liveness and RTT check outside the PSN space.
 * Used by the decoder, the encoder and the multipath code of the endpoints.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * | common header (Table 5-1), flags ACK_REQUEST, psn = next PSN  |  0
 * +---------------------------------------------------------------+
 * |                      transmit timestamp                       | 16
 * +---------------------------------------------------------------+
 * </pre>
 */
public final class ProbeFlyweight extends HeaderFlyweight<ProbeFlyweight> {
    public static final int TRANSMIT_TIMESTAMP_OFFSET = 16;
    public static final int TRANSMIT_TIMESTAMP_SIZE = 4;
    public static final int HEADER_LENGTH = 20;

    @Override
    public int headerLength() {
        return HEADER_LENGTH;
    }

    public long transmitTimestamp() {
        return rawU32(TRANSMIT_TIMESTAMP_OFFSET);
    }

    public ProbeFlyweight transmitTimestamp(long value) {
        return rawU32(TRANSMIT_TIMESTAMP_OFFSET, value);
    }

    @Override
    protected void appendFields(StringBuilder sb) {
        sb.append(", transmitTimestamp=").append(transmitTimestamp());
    }
}

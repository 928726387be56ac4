package org.mrconf.wire;

/**
 * The data header of WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST and READ_RESPONSE packets
 * (clause 5.2, Tables 5-4 to 5-8), with the opcode extension that follows it at offset 36. Used by
 * the decoder, the encoder and whoever places or builds data packets.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------------------------------------------------------+
 * |               common header (Table 5-1), 16 bytes             |  0
 * +-------------------------------+-------------------------------+
 * |           stream id           |        payload length         | 16
 * +-------------------------------+-------------------------------+
 * |                 message sequence number (MSN)                 | 20
 * +---------------------------------------------------------------+
 * |                        message length                         | 24
 * +---------------------------------------------------------------+
 * |                        message offset                         | 28
 * +---------------------------------------------------------------+
 * |                      transmit timestamp                       | 32
 * +---------------------------------------------------------------+
 *
 * WRITE (header 48), WRITE_WITH_IMMEDIATE (52), READ_REQUEST (52):
 * +---------------------------------------------------------------+
 * |                   remote address (64 bits)                    | 36
 * |                                                               |
 * +---------------------------------------------------------------+
 * |                          remote key                           | 44
 * +---------------------------------------------------------------+
 * |  WRITE_WITH_IMMEDIATE: immediate; READ_REQUEST: sink handle   | 48
 * +---------------------------------------------------------------+
 *
 * SEND (header 40), READ_RESPONSE (40):
 * +---------------------------------------------------------------+
 * |  SEND: receive sequence number; READ_RESPONSE: sink handle    | 36
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The extension accessors check the opcode in the buffer and throw IllegalStateException when it
 * does not carry the field, because the extensions overlap (offset 36 is a remote address, an RSN or
 * a sink handle). Set the opcode first; to put bytes where an opcode has no field, use the raw
 * accessors of {@link HeaderFlyweight}.
 */
public final class DataHeaderFlyweight extends HeaderFlyweight<DataHeaderFlyweight> {
    public static final int STREAM_ID_OFFSET = 16;
    public static final int STREAM_ID_SIZE = 2;
    public static final int PAYLOAD_LENGTH_OFFSET = 18;
    public static final int PAYLOAD_LENGTH_SIZE = 2;
    public static final int MESSAGE_SEQUENCE_NUMBER_OFFSET = 20;
    public static final int MESSAGE_SEQUENCE_NUMBER_SIZE = 4;
    public static final int MESSAGE_LENGTH_OFFSET = 24;
    public static final int MESSAGE_LENGTH_SIZE = 4;
    public static final int MESSAGE_OFFSET_OFFSET = 28;
    public static final int MESSAGE_OFFSET_SIZE = 4;
    public static final int TRANSMIT_TIMESTAMP_OFFSET = 32;
    public static final int TRANSMIT_TIMESTAMP_SIZE = 4;
    /** End of the data header proper; the opcode extension starts here. */
    public static final int HEADER_LENGTH = 36;

    /** WRITE, WRITE_WITH_IMMEDIATE and READ_REQUEST (Tables 5-5, 5-7). */
    public static final int REMOTE_ADDRESS_OFFSET = 36;

    public static final int REMOTE_ADDRESS_SIZE = 8;
    /** WRITE, WRITE_WITH_IMMEDIATE and READ_REQUEST (Tables 5-5, 5-7). */
    public static final int REMOTE_KEY_OFFSET = 44;

    public static final int REMOTE_KEY_SIZE = 4;
    /** WRITE_WITH_IMMEDIATE only (Table 5-5). */
    public static final int IMMEDIATE_OFFSET = 48;

    public static final int IMMEDIATE_SIZE = 4;
    /** SEND only (Table 5-6). */
    public static final int RECEIVE_SEQUENCE_NUMBER_OFFSET = 36;

    public static final int RECEIVE_SEQUENCE_NUMBER_SIZE = 4;
    /** READ_REQUEST's sink handle (Table 5-7). */
    public static final int READ_REQUEST_SINK_HANDLE_OFFSET = 48;
    /** READ_RESPONSE's sink handle (Table 5-8). */
    public static final int READ_RESPONSE_SINK_HANDLE_OFFSET = 36;

    public static final int SINK_HANDLE_SIZE = 4;

    /** The header length of the opcode in the buffer, or {@link #HEADER_LENGTH} if it is unknown. */
    @Override
    public int headerLength() {
        Opcode opcode = opcode();
        return opcode != null ? opcode.headerLength() : HEADER_LENGTH;
    }

    /** Absolute index of the first payload byte in the wrapped buffer. */
    public int payloadIndex() {
        return offset() + headerLength();
    }

    public int streamId() {
        return rawU16(STREAM_ID_OFFSET);
    }

    public DataHeaderFlyweight streamId(int value) {
        return rawU16(STREAM_ID_OFFSET, value);
    }

    /** Payload bytes in this packet; the decoder has checked it against the packet length. */
    public int payloadLength() {
        return rawU16(PAYLOAD_LENGTH_OFFSET);
    }

    public DataHeaderFlyweight payloadLength(int value) {
        return rawU16(PAYLOAD_LENGTH_OFFSET, value);
    }

    public long messageSequenceNumber() {
        return rawU32(MESSAGE_SEQUENCE_NUMBER_OFFSET);
    }

    public DataHeaderFlyweight messageSequenceNumber(long value) {
        return rawU32(MESSAGE_SEQUENCE_NUMBER_OFFSET, value);
    }

    public long messageLength() {
        return rawU32(MESSAGE_LENGTH_OFFSET);
    }

    public DataHeaderFlyweight messageLength(long value) {
        return rawU32(MESSAGE_LENGTH_OFFSET, value);
    }

    public long messageOffset() {
        return rawU32(MESSAGE_OFFSET_OFFSET);
    }

    public DataHeaderFlyweight messageOffset(long value) {
        return rawU32(MESSAGE_OFFSET_OFFSET, value);
    }

    public long transmitTimestamp() {
        return rawU32(TRANSMIT_TIMESTAMP_OFFSET);
    }

    public DataHeaderFlyweight transmitTimestamp(long value) {
        return rawU32(TRANSMIT_TIMESTAMP_OFFSET, value);
    }

    /** WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST: the 64-bit remote address, as raw bits. */
    public long remoteAddress() {
        requireRemoteRegion("remote address");
        return rawU64(REMOTE_ADDRESS_OFFSET);
    }

    public DataHeaderFlyweight remoteAddress(long value) {
        requireRemoteRegion("remote address");
        return rawU64(REMOTE_ADDRESS_OFFSET, value);
    }

    /** WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST: the region key. */
    public long remoteKey() {
        requireRemoteRegion("remote key");
        return rawU32(REMOTE_KEY_OFFSET);
    }

    public DataHeaderFlyweight remoteKey(long value) {
        requireRemoteRegion("remote key");
        return rawU32(REMOTE_KEY_OFFSET, value);
    }

    /** WRITE_WITH_IMMEDIATE: the immediate data. */
    public long immediate() {
        require(opcode() == Opcode.WRITE_WITH_IMMEDIATE, "immediate");
        return rawU32(IMMEDIATE_OFFSET);
    }

    public DataHeaderFlyweight immediate(long value) {
        require(opcode() == Opcode.WRITE_WITH_IMMEDIATE, "immediate");
        return rawU32(IMMEDIATE_OFFSET, value);
    }

    /** SEND: the receive sequence number (RSN). */
    public long receiveSequenceNumber() {
        require(opcode() == Opcode.SEND, "receive sequence number");
        return rawU32(RECEIVE_SEQUENCE_NUMBER_OFFSET);
    }

    public DataHeaderFlyweight receiveSequenceNumber(long value) {
        require(opcode() == Opcode.SEND, "receive sequence number");
        return rawU32(RECEIVE_SEQUENCE_NUMBER_OFFSET, value);
    }

    /** READ_REQUEST and READ_RESPONSE: the sink handle, at an offset that depends on the opcode. */
    public long sinkHandle() {
        return rawU32(sinkHandleOffset());
    }

    public DataHeaderFlyweight sinkHandle(long value) {
        return rawU32(sinkHandleOffset(), value);
    }

    private int sinkHandleOffset() {
        Opcode opcode = opcode();
        if (opcode == Opcode.READ_REQUEST) {
            return READ_REQUEST_SINK_HANDLE_OFFSET;
        }
        require(opcode == Opcode.READ_RESPONSE, "sink handle");
        return READ_RESPONSE_SINK_HANDLE_OFFSET;
    }

    private void requireRemoteRegion(String field) {
        Opcode opcode = opcode();
        require(
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST,
                field);
    }

    private void require(boolean carried, String field) {
        if (!carried) {
            Opcode opcode = opcode();
            throw new IllegalStateException(field + " is not carried by opcode "
                    + (opcode != null ? opcode.name() : "0x" + Integer.toHexString(opcodeValue())));
        }
    }

    @Override
    protected void appendFields(StringBuilder sb) {
        sb.append(", streamId=")
                .append(streamId())
                .append(", payloadLength=")
                .append(payloadLength())
                .append(", msn=")
                .append(messageSequenceNumber())
                .append(", messageLength=")
                .append(messageLength())
                .append(", messageOffset=")
                .append(messageOffset())
                .append(", transmitTimestamp=")
                .append(transmitTimestamp());
        Opcode opcode = opcode();
        if (opcode == null) {
            return;
        }
        switch (opcode) {
            case WRITE, WRITE_WITH_IMMEDIATE, READ_REQUEST ->
                sb.append(", remoteAddress=0x")
                        .append(Long.toHexString(remoteAddress()))
                        .append(", remoteKey=0x")
                        .append(Long.toHexString(remoteKey()));
            case SEND -> sb.append(", rsn=").append(receiveSequenceNumber());
            default -> {}
        }
        if (opcode == Opcode.WRITE_WITH_IMMEDIATE) {
            sb.append(", immediate=0x").append(Long.toHexString(immediate()));
        }
        if (opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE) {
            sb.append(", sinkHandle=0x").append(Long.toHexString(sinkHandle()));
        }
    }
}

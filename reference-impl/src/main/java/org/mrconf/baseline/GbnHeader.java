package org.mrconf.baseline;

import java.nio.ByteBuffer;

/**
 * Flyweight over the baseline's 12-byte header, big-endian whatever the buffer's {@code order()}, read
 * and written at absolute indices without moving position or limit. Used by {@link GbnRequester} and
 * {@link GbnResponder}; no CRC, no connection id: one requester talks to one responder.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +---------------+---------------+-------------------------------+
 * |     type      |     flags     |        payload length         |  0
 * +---------------+---------------+-------------------------------+
 * |                              PSN                              |  4
 * +---------------------------------------------------------------+
 * |                          message id                           |  8
 * +---------------------------------------------------------------+
 * |                  payload (DATA only) ...                         12
 * </pre>
 *
 * <p>PSN meaning by type: DATA, the packet's sequence number; ACK, the last PSN received in order
 * (everything up to it is acknowledged); NAK, the PSN the responder expects (everything before it is
 * acknowledged, and the requester must go back to it). PSNs are 32-bit serial numbers that wrap.
 */
public final class GbnHeader {
    public static final int TYPE_OFFSET = 0;
    public static final int FLAGS_OFFSET = 1;
    public static final int PAYLOAD_LENGTH_OFFSET = 2;
    public static final int PSN_OFFSET = 4;
    public static final int MESSAGE_ID_OFFSET = 8;
    public static final int HEADER_LENGTH = 12;

    /** A data packet carrying part of a message. */
    public static final int TYPE_DATA = 1;
    /** A cumulative acknowledgement. */
    public static final int TYPE_ACK = 2;
    /** A sequence-error negative acknowledgement: go back to the PSN carried. */
    public static final int TYPE_NAK = 3;

    /** DATA flag: the last packet of its message. */
    public static final int FLAG_LAST = 0x01;
    /** DATA flag: acknowledge this packet now rather than waiting to coalesce. */
    public static final int FLAG_ACK_REQUEST = 0x02;

    /** The largest payload the 16-bit length field can describe. */
    public static final int MAX_PAYLOAD_LENGTH = 0xFFFF;

    private ByteBuffer buffer;
    private int offset;

    /** Points the flyweight at a header starting at absolute {@code offset}. */
    public GbnHeader wrap(final ByteBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public int type() {
        return buffer.get(offset + TYPE_OFFSET) & 0xFF;
    }

    public GbnHeader type(final int value) {
        buffer.put(offset + TYPE_OFFSET, (byte) value);
        return this;
    }

    public int flags() {
        return buffer.get(offset + FLAGS_OFFSET) & 0xFF;
    }

    public GbnHeader flags(final int value) {
        buffer.put(offset + FLAGS_OFFSET, (byte) value);
        return this;
    }

    public boolean hasFlags(final int mask) {
        return (flags() & mask) == mask;
    }

    public int payloadLength() {
        return getU16(offset + PAYLOAD_LENGTH_OFFSET);
    }

    public GbnHeader payloadLength(final int value) {
        putU16(offset + PAYLOAD_LENGTH_OFFSET, value);
        return this;
    }

    /** The PSN, unsigned. */
    public long psn() {
        return getU32(offset + PSN_OFFSET);
    }

    /** Writes the low 32 bits, so PSN arithmetic can run past 2^32 and wrap here. */
    public GbnHeader psn(final long value) {
        putU32(offset + PSN_OFFSET, value);
        return this;
    }

    /** The message id, unsigned. */
    public long messageId() {
        return getU32(offset + MESSAGE_ID_OFFSET);
    }

    public GbnHeader messageId(final long value) {
        putU32(offset + MESSAGE_ID_OFFSET, value);
        return this;
    }

    @Override
    public String toString() {
        if (buffer == null) {
            return "GbnHeader{unwrapped}";
        }
        final String name = switch (type()) {
            case TYPE_DATA -> "DATA";
            case TYPE_ACK -> "ACK";
            case TYPE_NAK -> "NAK";
            default -> "type" + type();
        };
        return "GbnHeader{" + name + " psn=" + psn() + " msg=" + messageId() + " length=" + payloadLength()
                + ((flags() & FLAG_LAST) != 0 ? " LAST" : "") + ((flags() & FLAG_ACK_REQUEST) != 0 ? " ACKREQ" : "")
                + '}';
    }

    private int getU16(final int index) {
        return ((buffer.get(index) & 0xFF) << 8) | (buffer.get(index + 1) & 0xFF);
    }

    private void putU16(final int index, final int value) {
        buffer.put(index, (byte) (value >>> 8));
        buffer.put(index + 1, (byte) value);
    }

    private long getU32(final int index) {
        return ((long) getU16(index) << 16) | getU16(index + 2);
    }

    private void putU32(final int index, final long value) {
        putU16(index, (int) (value >>> 16));
        putU16(index + 2, (int) value);
    }
}

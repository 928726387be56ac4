package org.mrconf.wire;

import java.nio.ByteBuffer;

/**
 * Builds packets in place: the send path of the reference transport and the tester peer. A header
 * method zeroes the opcode's header at an absolute index, sets version 1.0 and the opcode, and
 * returns this encoder's flyweight over it for the caller to fill; the caller writes any payload
 * bytes right after the header itself, so the codec never copies payload; then {@link #finish}
 * writes the CRC32C trailer.
 *
 * <pre>{@code
 * DataHeaderFlyweight h = encoder.data(buf, at, Opcode.WRITE).destinationConnectionId(c).psn(p)
 *     .payloadLength(n).messageLength(m).remoteAddress(a).remoteKey(k);
 * // ... write n payload bytes at h.payloadIndex() ...
 * encoder.finish(buf, at, Opcode.WRITE.packetLength(n));
 * }</pre>
 *
 * <p>Nothing is validated beyond the opcode having the requested header, so any field may hold an
 * invalid value; {@link #header} even writes unknown opcodes. The returned flyweights belong to the
 * encoder and are rewrapped by its next call. Writes are absolute and big-endian whatever the
 * buffer's order; position and limit are untouched. Not thread-safe: use one encoder per thread.
 */
public final class PacketEncoder {
    private final Crc32cTrailer crc = new Crc32cTrailer();
    private final CommonHeaderFlyweight common = new CommonHeaderFlyweight();
    private final DataHeaderFlyweight data = new DataHeaderFlyweight();
    private final AckFlyweight ack = new AckFlyweight();
    private final NackFlyweight nack = new NackFlyweight();
    private final ProbeFlyweight probe = new ProbeFlyweight();

    /** Starts a WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST or READ_RESPONSE at {@code offset}. */
    public DataHeaderFlyweight data(ByteBuffer buffer, int offset, Opcode opcode) {
        if (!opcode.hasDataHeader()) {
            throw new IllegalArgumentException(opcode + " has no data header");
        }
        zero(buffer, offset, opcode.headerLength());
        return data.wrap(buffer, offset).version(WireConstants.VERSION_1_0).opcode(opcode);
    }

    /** Starts an ACK at {@code offset}, with an all-zero SACK bitmap. */
    public AckFlyweight ack(ByteBuffer buffer, int offset) {
        zero(buffer, offset, AckFlyweight.HEADER_LENGTH);
        return ack.wrap(buffer, offset).version(WireConstants.VERSION_1_0).opcode(Opcode.ACK);
    }

    /** Starts a NACK at {@code offset}. */
    public NackFlyweight nack(ByteBuffer buffer, int offset) {
        zero(buffer, offset, NackFlyweight.HEADER_LENGTH);
        return nack.wrap(buffer, offset).version(WireConstants.VERSION_1_0).opcode(Opcode.NACK);
    }

    /** Starts a PROBE at {@code offset} with ACK_REQUEST already set, as 5.5.1 requires. */
    public ProbeFlyweight probe(ByteBuffer buffer, int offset) {
        zero(buffer, offset, ProbeFlyweight.HEADER_LENGTH);
        return probe.wrap(buffer, offset)
                .version(WireConstants.VERSION_1_0)
                .opcode(Opcode.PROBE)
                .flags(PacketFlags.ACK_REQUEST);
    }

    /**
     * Starts a packet with any opcode byte, known or not, zeroing {@code headerLength} bytes: for the
     * tester peer's malformed packets. Fill the rest with the raw accessors.
     */
    public CommonHeaderFlyweight header(ByteBuffer buffer, int offset, int opcodeValue, int headerLength) {
        zero(buffer, offset, headerLength);
        return common.wrap(buffer, offset).version(WireConstants.VERSION_1_0).opcodeValue(opcodeValue);
    }

    /**
     * Writes the CRC32C trailer over the first {@code packetLength - 4} bytes of the packet at
     * {@code offset} and returns {@code packetLength}, e.g. for the caller's send call.
     */
    public int finish(ByteBuffer buffer, int offset, int packetLength) {
        crc.write(buffer, offset, packetLength);
        return packetLength;
    }

    /**
     * Convenience for tests and tools: copies {@code payload}'s remaining bytes (its position does not
     * move) right after the header of the packet at {@code offset}, whose opcode must be known, then
     * finishes the packet and returns its length. The payload length field is left as the caller set it.
     */
    public int finishWithPayload(ByteBuffer buffer, int offset, ByteBuffer payload) {
        Opcode opcode = Opcode.fromValue(BigEndian.getU8(buffer, offset + CommonHeaderFlyweight.OPCODE_OFFSET));
        if (opcode == null) {
            throw new IllegalArgumentException("unknown opcode: write the payload and call finish()");
        }
        int payloadLength = payload.remaining();
        buffer.put(offset + opcode.headerLength(), payload, payload.position(), payloadLength);
        return finish(buffer, offset, opcode.packetLength(payloadLength));
    }

    private static void zero(ByteBuffer buffer, int offset, int length) {
        for (int i = 0; i < length; i++) {
            buffer.put(offset + i, (byte) 0);
        }
    }
}

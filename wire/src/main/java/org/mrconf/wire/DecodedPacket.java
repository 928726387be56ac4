package org.mrconf.wire;

import java.nio.ByteBuffer;

/**
 * The reusable result of {@link PacketDecoder#decode}: the status, the opcode, the header flyweight
 * of that opcode already wrapped over the packet, and the payload as a range of the same buffer. A
 * receive loop keeps one instance and passes it to every decode, so decoding allocates nothing; the
 * contents are valid until the next decode into it or until the buffer is reused.
 */
public final class DecodedPacket {
    private final CommonHeaderFlyweight commonHeader = new CommonHeaderFlyweight();
    private final DataHeaderFlyweight dataHeader = new DataHeaderFlyweight();
    private final AckFlyweight ack = new AckFlyweight();
    private final NackFlyweight nack = new NackFlyweight();
    private final ProbeFlyweight probe = new ProbeFlyweight();
    private final DecodeError error = new DecodeError();

    // A fresh result reads as OK with no opcode, so the accessors report "nothing decoded".
    private DecodeStatus status = DecodeStatus.OK;
    private Opcode opcode;
    private ByteBuffer buffer;
    private int packetOffset;
    private int packetLength;
    private boolean hasCommonHeader;
    private int payloadIndex;
    private int payloadLength;

    /** The outcome of the last decode. */
    public DecodeStatus status() {
        return status;
    }

    public boolean isOk() {
        return status == DecodeStatus.OK;
    }

    /** Why the last decode failed; kind OK after a success. */
    public DecodeError error() {
        return error;
    }

    /** The packet's opcode after a success, else {@code null}. */
    public Opcode opcode() {
        return opcode;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the packet's first byte. */
    public int packetOffset() {
        return packetOffset;
    }

    /** The packet's length, trailer included. */
    public int packetLength() {
        return packetLength;
    }

    /** Absolute index of the first payload byte in {@link #buffer()} (the trailer's index if there is none). */
    public int payloadIndex() {
        return payloadIndex;
    }

    /** Payload bytes; 0 for packets without payload. */
    public int payloadLength() {
        return payloadLength;
    }

    /**
     * The common header. Unlike the other flyweights it is also available after a failed decode,
     * whenever the buffer held at least 16 bytes, so tools can show what arrived.
     */
    public CommonHeaderFlyweight commonHeader() {
        if (!hasCommonHeader) {
            throw new IllegalStateException("no common header: " + error);
        }
        return commonHeader;
    }

    /** The data header of a WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST or READ_RESPONSE. */
    public DataHeaderFlyweight dataHeader() {
        require(opcode != null && opcode.hasDataHeader(), "data header");
        return dataHeader;
    }

    public AckFlyweight ack() {
        require(opcode == Opcode.ACK, "ACK");
        return ack;
    }

    public NackFlyweight nack() {
        require(opcode == Opcode.NACK, "NACK");
        return nack;
    }

    public ProbeFlyweight probe() {
        require(opcode == Opcode.PROBE, "PROBE");
        return probe;
    }

    /** Copies the payload into {@code dst} at {@code dstIndex}; neither buffer's position moves. */
    public void copyPayload(ByteBuffer dst, int dstIndex) {
        require(opcode != null, "payload");
        dst.put(dstIndex, buffer, payloadIndex, payloadLength);
    }

    private void require(boolean present, String what) {
        if (!present) {
            String result =
                    status != DecodeStatus.OK ? error.toString() : opcode != null ? opcode.name() : "nothing decoded";
            throw new IllegalStateException("no " + what + " in this result: " + result);
        }
    }

    void start(ByteBuffer buffer, int packetOffset, int packetLength) {
        this.status = DecodeStatus.OK;
        this.opcode = null;
        this.buffer = buffer;
        this.packetOffset = packetOffset;
        this.packetLength = packetLength;
        this.hasCommonHeader = false;
        this.payloadIndex = 0;
        this.payloadLength = 0;
        if (error.kind() != DecodeStatus.OK) {
            error.clear(); // only after a failure: most decodes succeed, and each reference store has a GC barrier
        }
    }

    CommonHeaderFlyweight wrapCommonHeader() {
        hasCommonHeader = true;
        return commonHeader.wrap(buffer, packetOffset);
    }

    DataHeaderFlyweight wrapDataHeader() {
        return dataHeader.wrap(buffer, packetOffset);
    }

    AckFlyweight wrapAck() {
        return ack.wrap(buffer, packetOffset);
    }

    NackFlyweight wrapNack() {
        return nack.wrap(buffer, packetOffset);
    }

    ProbeFlyweight wrapProbe() {
        return probe.wrap(buffer, packetOffset);
    }

    DecodeStatus succeed(Opcode opcode, int payloadLength) {
        this.opcode = opcode;
        this.payloadIndex = packetOffset + opcode.headerLength();
        this.payloadLength = payloadLength;
        return status;
    }

    DecodeStatus fail(
            DecodeStatus kind, String field, String clause, long actual, DecodeError.Bound bound, long expected) {
        this.status = kind;
        this.opcode = null;
        error.set(kind, field, clause, actual, bound, expected);
        return kind;
    }

    @Override
    public String toString() {
        if (status != DecodeStatus.OK) {
            return "DecodedPacket{" + error + "}";
        }
        if (opcode == null) {
            return "DecodedPacket{nothing decoded}";
        }
        HeaderFlyweight<?> header = switch (opcode) {
            case ACK -> ack;
            case NACK -> nack;
            case PROBE -> probe;
            default -> dataHeader;
        };
        return "DecodedPacket{" + header + ", payload=" + payloadLength + " bytes at " + payloadIndex + "}";
    }
}

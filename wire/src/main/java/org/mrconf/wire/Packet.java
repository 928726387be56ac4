package org.mrconf.wire;

import java.nio.ByteBuffer;

/**
 * A whole packet as an immutable value, for tests, the tester peer's scripts and tools such as pcap
 * dumps. Encoding and decoding through records allocate; the transport's hot path uses
 * {@link PacketEncoder} and {@link PacketDecoder} directly. Records check that each value fits its
 * field and that the opcode carries the field, but not protocol rules, so a test can encode e.g. a
 * segment that runs past its message.
 */
public sealed interface Packet permits DataPacket, AckPacket, NackPacket, ProbePacket {
    Opcode opcode();

    CommonHeader header();

    /** Bytes this packet encodes to, trailer included. */
    int encodedLength();

    /** Writes the packet, trailer included, at absolute index {@code offset}; returns its length. */
    int encode(PacketEncoder encoder, ByteBuffer buffer, int offset);

    default int encode(ByteBuffer buffer, int offset) {
        return encode(new PacketEncoder(), buffer, offset);
    }

    default byte[] toBytes() {
        byte[] bytes = new byte[encodedLength()];
        encode(ByteBuffer.wrap(bytes), 0);
        return bytes;
    }

    /** Decodes and validates the packet, throwing MalformedPacketException if the decoder rejects it. */
    static Packet decode(ByteBuffer buffer, int offset, int length) {
        return from(new PacketDecoder().decodeOrThrow(buffer, offset, length, new DecodedPacket()));
    }

    static Packet fromBytes(byte[] bytes) {
        return decode(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    /** Copies a successful decode result into a record. */
    static Packet from(DecodedPacket decoded) {
        if (!decoded.isOk()) {
            throw new MalformedPacketException(decoded.error());
        }
        return switch (decoded.opcode()) {
            case ACK -> AckPacket.from(decoded.ack());
            case NACK -> NackPacket.from(decoded.nack());
            case PROBE -> ProbePacket.from(decoded.probe());
            default -> DataPacket.from(decoded);
        };
    }
}

package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/** A PROBE (Table 5-11) as an immutable value; see {@link Packet}. Flags are encoded as given. */
public record ProbePacket(CommonHeader header, long transmitTimestamp) implements Packet {
    public ProbePacket {
        Objects.requireNonNull(header, "header");
        FieldWidth.u32(transmitTimestamp, "transmit timestamp");
    }

    /** A PROBE with ACK_REQUEST added to the header's flags, as 5.5.1 requires. */
    public static ProbePacket of(CommonHeader header, long transmitTimestamp) {
        return new ProbePacket(header.withFlags(header.flags() | PacketFlags.ACK_REQUEST), transmitTimestamp);
    }

    @Override
    public Opcode opcode() {
        return Opcode.PROBE;
    }

    @Override
    public int encodedLength() {
        return Opcode.PROBE.packetLength(0);
    }

    @Override
    public int encode(PacketEncoder encoder, ByteBuffer buffer, int offset) {
        ProbeFlyweight probe = encoder.probe(buffer, offset);
        header.writeTo(probe);
        probe.transmitTimestamp(transmitTimestamp);
        return encoder.finish(buffer, offset, encodedLength());
    }

    static ProbePacket from(ProbeFlyweight probe) {
        return new ProbePacket(CommonHeader.readFrom(probe), probe.transmitTimestamp());
    }
}

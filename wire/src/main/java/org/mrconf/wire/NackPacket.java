package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A NACK (Table 5-10) as an immutable value; see {@link Packet}. The header's path id and psn name
 * the rejected packet. A NACK with an undefined code needs {@link NackFlyweight#codeValue(int)}.
 */
public record NackPacket(
        CommonHeader header,
        NackCode code,
        int streamId,
        long messageSequenceNumber,
        long cumulativePsn,
        long retryAfter)
        implements Packet {
    public NackPacket {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(code, "code");
        FieldWidth.u16(streamId, "stream id");
        FieldWidth.u32(messageSequenceNumber, "message sequence number");
        FieldWidth.u32(cumulativePsn, "cumulative psn");
        FieldWidth.u32(retryAfter, "retry after");
    }

    @Override
    public Opcode opcode() {
        return Opcode.NACK;
    }

    @Override
    public int encodedLength() {
        return Opcode.NACK.packetLength(0);
    }

    @Override
    public int encode(PacketEncoder encoder, ByteBuffer buffer, int offset) {
        NackFlyweight nack = encoder.nack(buffer, offset);
        header.writeTo(nack);
        nack.code(code)
                .streamId(streamId)
                .messageSequenceNumber(messageSequenceNumber)
                .cumulativePsn(cumulativePsn)
                .retryAfter(retryAfter);
        return encoder.finish(buffer, offset, encodedLength());
    }

    static NackPacket from(NackFlyweight nack) {
        return new NackPacket(
                CommonHeader.readFrom(nack),
                nack.code(),
                nack.streamId(),
                nack.messageSequenceNumber(),
                nack.cumulativePsn(),
                nack.retryAfter());
    }
}

package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A WRITE, WRITE_WITH_IMMEDIATE, SEND, READ_REQUEST or READ_RESPONSE (Tables 5-4 to 5-8) as an
 * immutable value; see {@link Packet}. Extension fields the opcode does not carry must be 0 and
 * decode as 0. The payload length field is always the payload array's length; packets whose field
 * disagrees with their bytes need {@link PacketEncoder} and the flyweights.
 */
public record DataPacket(
        Opcode opcode,
        CommonHeader header,
        int streamId,
        long messageSequenceNumber,
        long messageLength,
        long messageOffset,
        long transmitTimestamp,
        long remoteAddress,
        long remoteKey,
        long immediate,
        long receiveSequenceNumber,
        long sinkHandle,
        byte[] payload)
        implements Packet {
    public DataPacket {
        Objects.requireNonNull(opcode, "opcode");
        Objects.requireNonNull(header, "header");
        if (!opcode.hasDataHeader()) {
            throw new IllegalArgumentException(opcode + " is not a data header opcode");
        }
        FieldWidth.u16(streamId, "stream id");
        FieldWidth.u32(messageSequenceNumber, "message sequence number");
        FieldWidth.u32(messageLength, "message length");
        FieldWidth.u32(messageOffset, "message offset");
        FieldWidth.u32(transmitTimestamp, "transmit timestamp");
        FieldWidth.u32(remoteKey, "remote key");
        FieldWidth.u32(immediate, "immediate");
        FieldWidth.u32(receiveSequenceNumber, "receive sequence number");
        FieldWidth.u32(sinkHandle, "sink handle");
        FieldWidth.u16(payload.length, "payload length");
        boolean remoteRegion =
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST;
        requireAbsent(opcode, remoteRegion || remoteAddress == 0, "remote address");
        requireAbsent(opcode, remoteRegion || remoteKey == 0, "remote key");
        requireAbsent(opcode, opcode == Opcode.WRITE_WITH_IMMEDIATE || immediate == 0, "immediate");
        requireAbsent(opcode, opcode == Opcode.SEND || receiveSequenceNumber == 0, "receive sequence number");
        requireAbsent(
                opcode,
                opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE || sinkHandle == 0,
                "sink handle");
        payload = payload.clone();
    }

    private static void requireAbsent(Opcode opcode, boolean ok, String field) {
        if (!ok) {
            throw new IllegalArgumentException(opcode + " does not carry a " + field + "; it must be 0");
        }
    }

    public static DataPacket write(
            CommonHeader header,
            int streamId,
            long msn,
            long messageLength,
            long messageOffset,
            long transmitTimestamp,
            long remoteAddress,
            long remoteKey,
            byte[] payload) {
        return new DataPacket(
                Opcode.WRITE,
                header,
                streamId,
                msn,
                messageLength,
                messageOffset,
                transmitTimestamp,
                remoteAddress,
                remoteKey,
                0,
                0,
                0,
                payload);
    }

    public static DataPacket writeWithImmediate(
            CommonHeader header,
            int streamId,
            long msn,
            long messageLength,
            long messageOffset,
            long transmitTimestamp,
            long remoteAddress,
            long remoteKey,
            long immediate,
            byte[] payload) {
        return new DataPacket(
                Opcode.WRITE_WITH_IMMEDIATE,
                header,
                streamId,
                msn,
                messageLength,
                messageOffset,
                transmitTimestamp,
                remoteAddress,
                remoteKey,
                immediate,
                0,
                0,
                payload);
    }

    public static DataPacket send(
            CommonHeader header,
            int streamId,
            long msn,
            long messageLength,
            long messageOffset,
            long transmitTimestamp,
            long receiveSequenceNumber,
            byte[] payload) {
        return new DataPacket(
                Opcode.SEND,
                header,
                streamId,
                msn,
                messageLength,
                messageOffset,
                transmitTimestamp,
                0,
                0,
                0,
                receiveSequenceNumber,
                0,
                payload);
    }

    /** A READ_REQUEST for {@code readLength} bytes: message offset 0, no payload (5.2.5). */
    public static DataPacket readRequest(
            CommonHeader header,
            int streamId,
            long msn,
            long readLength,
            long transmitTimestamp,
            long remoteAddress,
            long remoteKey,
            long sinkHandle) {
        return new DataPacket(
                Opcode.READ_REQUEST,
                header,
                streamId,
                msn,
                readLength,
                0,
                transmitTimestamp,
                remoteAddress,
                remoteKey,
                0,
                0,
                sinkHandle,
                new byte[0]);
    }

    public static DataPacket readResponse(
            CommonHeader header,
            int streamId,
            long msn,
            long messageLength,
            long messageOffset,
            long transmitTimestamp,
            long sinkHandle,
            byte[] payload) {
        return new DataPacket(
                Opcode.READ_RESPONSE,
                header,
                streamId,
                msn,
                messageLength,
                messageOffset,
                transmitTimestamp,
                0,
                0,
                0,
                0,
                sinkHandle,
                payload);
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public int payloadLength() {
        return payload.length;
    }

    @Override
    public int encodedLength() {
        return opcode.packetLength(payload.length);
    }

    @Override
    public int encode(PacketEncoder encoder, ByteBuffer buffer, int offset) {
        DataHeaderFlyweight data = encoder.data(buffer, offset, opcode);
        header.writeTo(data);
        data.streamId(streamId)
                .payloadLength(payload.length)
                .messageSequenceNumber(messageSequenceNumber)
                .messageLength(messageLength)
                .messageOffset(messageOffset)
                .transmitTimestamp(transmitTimestamp);
        switch (opcode) {
            case WRITE -> data.remoteAddress(remoteAddress).remoteKey(remoteKey);
            case WRITE_WITH_IMMEDIATE ->
                data.remoteAddress(remoteAddress).remoteKey(remoteKey).immediate(immediate);
            case SEND -> data.receiveSequenceNumber(receiveSequenceNumber);
            case READ_REQUEST ->
                data.remoteAddress(remoteAddress).remoteKey(remoteKey).sinkHandle(sinkHandle);
            case READ_RESPONSE -> data.sinkHandle(sinkHandle);
            default -> throw new AssertionError(opcode);
        }
        buffer.put(data.payloadIndex(), payload);
        return encoder.finish(buffer, offset, encodedLength());
    }

    static DataPacket from(DecodedPacket decoded) {
        DataHeaderFlyweight data = decoded.dataHeader();
        Opcode opcode = decoded.opcode();
        boolean remoteRegion =
                opcode == Opcode.WRITE || opcode == Opcode.WRITE_WITH_IMMEDIATE || opcode == Opcode.READ_REQUEST;
        byte[] payload = new byte[decoded.payloadLength()];
        decoded.buffer().get(decoded.payloadIndex(), payload);
        return new DataPacket(
                opcode,
                CommonHeader.readFrom(data),
                data.streamId(),
                data.messageSequenceNumber(),
                data.messageLength(),
                data.messageOffset(),
                data.transmitTimestamp(),
                remoteRegion ? data.remoteAddress() : 0,
                remoteRegion ? data.remoteKey() : 0,
                opcode == Opcode.WRITE_WITH_IMMEDIATE ? data.immediate() : 0,
                opcode == Opcode.SEND ? data.receiveSequenceNumber() : 0,
                opcode == Opcode.READ_REQUEST || opcode == Opcode.READ_RESPONSE ? data.sinkHandle() : 0,
                payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataPacket d
                && opcode == d.opcode
                && header.equals(d.header)
                && streamId == d.streamId
                && messageSequenceNumber == d.messageSequenceNumber
                && messageLength == d.messageLength
                && messageOffset == d.messageOffset
                && transmitTimestamp == d.transmitTimestamp
                && remoteAddress == d.remoteAddress
                && remoteKey == d.remoteKey
                && immediate == d.immediate
                && receiveSequenceNumber == d.receiveSequenceNumber
                && sinkHandle == d.sinkHandle
                && Arrays.equals(payload, d.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                opcode,
                header,
                streamId,
                messageSequenceNumber,
                messageLength,
                messageOffset,
                transmitTimestamp,
                remoteAddress,
                remoteKey,
                immediate,
                receiveSequenceNumber,
                sinkHandle,
                Arrays.hashCode(payload));
    }

    /** Shows at most the first 32 payload bytes in hex. */
    @Override
    public String toString() {
        String shown = HexFormat.of().formatHex(payload, 0, Math.min(payload.length, 32));
        return "DataPacket[opcode=" + opcode + ", header=" + header + ", streamId=" + streamId
                + ", msn=" + messageSequenceNumber + ", messageLength=" + messageLength
                + ", messageOffset=" + messageOffset + ", transmitTimestamp=" + transmitTimestamp
                + ", remoteAddress=0x" + Long.toHexString(remoteAddress) + ", remoteKey=0x"
                + Long.toHexString(remoteKey)
                + ", immediate=0x" + Long.toHexString(immediate) + ", rsn=" + receiveSequenceNumber
                + ", sinkHandle=0x" + Long.toHexString(sinkHandle)
                + ", payload(" + payload.length + ")=" + shown + (payload.length > 32 ? "..." : "") + "]";
    }
}

package org.mrconf.wire;

import static org.mrconf.wire.DecodeError.Bound.AT_LEAST;
import static org.mrconf.wire.DecodeError.Bound.AT_MOST;
import static org.mrconf.wire.DecodeError.Bound.EQUAL;
import static org.mrconf.wire.DecodeError.Bound.KNOWN_VALUE;
import static org.mrconf.wire.DecodeError.FIELD_CODE;
import static org.mrconf.wire.DecodeError.FIELD_CRC32C;
import static org.mrconf.wire.DecodeError.FIELD_MESSAGE_OFFSET;
import static org.mrconf.wire.DecodeError.FIELD_OPCODE;
import static org.mrconf.wire.DecodeError.FIELD_PACKET_LENGTH;
import static org.mrconf.wire.DecodeError.FIELD_PAYLOAD_LENGTH;
import static org.mrconf.wire.DecodeError.FIELD_SACK_BITMAP;
import static org.mrconf.wire.DecodeError.FIELD_VERSION;
import static org.mrconf.wire.DecodeStatus.BAD_CRC;
import static org.mrconf.wire.DecodeStatus.INCONSISTENT_LENGTH;
import static org.mrconf.wire.DecodeStatus.INVALID_FIELD;
import static org.mrconf.wire.DecodeStatus.TRUNCATED;
import static org.mrconf.wire.DecodeStatus.UNKNOWN_OPCODE;
import static org.mrconf.wire.DecodeStatus.UNSUPPORTED_VERSION;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Validates one received packet and exposes its fields without copying: the receive path of the
 * reference transport, the tester peer and the pcap tools call {@link #decode}. The checks run in a
 * fixed order and the first failure is reported, so drop counters are deterministic:
 *
 * <ol>
 *   <li>the buffer holds {@code length} bytes at {@code offset}, and {@code length >= 20} (TRUNCATED);</li>
 *   <li>major version 1, any minor (UNSUPPORTED_VERSION, 5.6.3);</li>
 *   <li>opcode in Table 5-2 (UNKNOWN_OPCODE, 5.1.2);</li>
 *   <li>{@code length >= header length + 4} (TRUNCATED, 5.1.3);</li>
 *   <li>CRC32C trailer (BAD_CRC, 5.6.2);</li>
 *   <li>{@code length == header length + payload length + 4} for data packets, {@code header length + 4}
 *       for READ_REQUEST, ACK, NACK, PROBE (INCONSISTENT_LENGTH, 5.1.3);</li>
 *   <li>data packets: {@code message offset + payload length <= message length}, computed without
 *       32-bit wrap (INCONSISTENT_LENGTH, 5.2.2);</li>
 *   <li>READ_REQUEST: payload length 0, then message offset 0 (INVALID_FIELD, 5.2.5);</li>
 *   <li>ACK: SACK bit 0 clear (INVALID_FIELD, 5.3.2); NACK: code in Table 9-1 (INVALID_FIELD).</li>
 * </ol>
 *
 * <p>Reserved fields and flags are ignored, as 5.1.1 requires. Whatever the bytes, decode returns a
 * status and throws nothing (null arguments aside) and allocates nothing. Not thread-safe: use one
 * decoder per thread.
 */
public final class PacketDecoder {
    private final Crc32cTrailer crc = new Crc32cTrailer();

    /**
     * Decodes the {@code length} bytes at absolute index {@code offset} of {@code buffer} (ignoring its
     * position and byte order) into {@code out} and returns {@code out.status()}.
     */
    public DecodeStatus decode(ByteBuffer buffer, int offset, int length, DecodedPacket out) {
        Objects.requireNonNull(buffer, "buffer");
        out.start(buffer, offset, length);
        boolean offsetInside = offset >= 0 && offset <= buffer.limit();
        int available = offsetInside ? buffer.limit() - offset : 0;
        if (!offsetInside || length < 0 || length > available) {
            return out.fail(TRUNCATED, FIELD_PACKET_LENGTH, "5.1.3", length, AT_MOST, available);
        }
        if (length < WireConstants.MIN_PACKET_LENGTH) {
            return out.fail(TRUNCATED, FIELD_PACKET_LENGTH, "5.1.3", length, AT_LEAST, WireConstants.MIN_PACKET_LENGTH);
        }
        CommonHeaderFlyweight header = out.wrapCommonHeader();
        if (header.versionMajor() != WireConstants.VERSION_MAJOR_1) {
            return out.fail(
                    UNSUPPORTED_VERSION,
                    FIELD_VERSION,
                    "5.6.3",
                    header.versionMajor(),
                    EQUAL,
                    WireConstants.VERSION_MAJOR_1);
        }
        Opcode opcode = header.opcode();
        if (opcode == null) {
            return out.fail(UNKNOWN_OPCODE, FIELD_OPCODE, "5.1.2", header.opcodeValue(), KNOWN_VALUE, 0);
        }
        int minimum = opcode.packetLength(0);
        if (length < minimum) {
            return out.fail(TRUNCATED, FIELD_PACKET_LENGTH, "5.1.3", length, AT_LEAST, minimum);
        }
        long stored = Crc32cTrailer.read(buffer, offset, length);
        long computed = crc.compute(buffer, offset, Crc32cTrailer.trailerOffset(length));
        if (stored != computed) {
            return out.fail(BAD_CRC, FIELD_CRC32C, "5.6.2", stored, EQUAL, computed);
        }
        return switch (opcode) {
            case ACK -> decodeAck(out, length);
            case NACK -> decodeNack(out, length);
            case PROBE -> decodeProbe(out, length);
            default -> decodeData(out, opcode, length);
        };
    }

    /** Like {@link #decode} but throws MalformedPacketException on failure; returns {@code out}. */
    public DecodedPacket decodeOrThrow(ByteBuffer buffer, int offset, int length, DecodedPacket out) {
        if (decode(buffer, offset, length, out) != DecodeStatus.OK) {
            throw new MalformedPacketException(out.error());
        }
        return out;
    }

    private static DecodeStatus decodeData(DecodedPacket out, Opcode opcode, int length) {
        DataHeaderFlyweight data = out.wrapDataHeader();
        int payloadLength = data.payloadLength();
        if (opcode.carriesPayload()) {
            if (!checkLength(out, opcode, length, payloadLength)) {
                return out.status();
            }
            long segmentEnd = data.messageOffset() + payloadLength;
            if (segmentEnd > data.messageLength()) {
                return out.fail(
                        INCONSISTENT_LENGTH, FIELD_MESSAGE_OFFSET, "5.2.2", segmentEnd, AT_MOST, data.messageLength());
            }
            return out.succeed(opcode, payloadLength);
        }
        // READ_REQUEST: Table 5-2 gives it no payload, so its length is fixed whatever the field says.
        if (!checkLength(out, opcode, length, 0)) {
            return out.status();
        }
        if (payloadLength != 0) {
            return out.fail(INVALID_FIELD, FIELD_PAYLOAD_LENGTH, "5.2.5", payloadLength, EQUAL, 0);
        }
        if (data.messageOffset() != 0) {
            return out.fail(INVALID_FIELD, FIELD_MESSAGE_OFFSET, "5.2.5", data.messageOffset(), EQUAL, 0);
        }
        return out.succeed(opcode, 0);
    }

    private static DecodeStatus decodeAck(DecodedPacket out, int length) {
        if (!checkLength(out, Opcode.ACK, length, 0)) {
            return out.status();
        }
        if (out.wrapAck().sackBit(0)) {
            return out.fail(INVALID_FIELD, FIELD_SACK_BITMAP, "5.3.2", 1, EQUAL, 0);
        }
        return out.succeed(Opcode.ACK, 0);
    }

    private static DecodeStatus decodeNack(DecodedPacket out, int length) {
        if (!checkLength(out, Opcode.NACK, length, 0)) {
            return out.status();
        }
        NackFlyweight nack = out.wrapNack();
        if (nack.code() == null) {
            return out.fail(INVALID_FIELD, FIELD_CODE, "Table 9-1", nack.codeValue(), KNOWN_VALUE, 0);
        }
        return out.succeed(Opcode.NACK, 0);
    }

    private static DecodeStatus decodeProbe(DecodedPacket out, int length) {
        if (!checkLength(out, Opcode.PROBE, length, 0)) {
            return out.status();
        }
        // ACK_REQUEST is not checked: 5.5.1 obliges the PROBE's sender, not its receiver.
        out.wrapProbe();
        return out.succeed(Opcode.PROBE, 0);
    }

    private static boolean checkLength(DecodedPacket out, Opcode opcode, int length, int payloadLength) {
        int expected = opcode.packetLength(payloadLength);
        if (length != expected) {
            out.fail(INCONSISTENT_LENGTH, FIELD_PACKET_LENGTH, "5.1.3", length, EQUAL, expected);
            return false;
        }
        return true;
    }
}

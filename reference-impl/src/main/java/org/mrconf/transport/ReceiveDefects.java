package org.mrconf.transport;

import java.nio.ByteBuffer;
import org.mrconf.wire.AckFlyweight;
import org.mrconf.wire.CommonHeaderFlyweight;
import org.mrconf.wire.Crc32cTrailer;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DecodeError;
import org.mrconf.wire.DecodeStatus;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketDecoder;
import org.mrconf.wire.PacketFlags;
import org.mrconf.wire.WireConstants;

/**
 * The receive checks of {@link Endpoint}, with the decode-stage self-validation defects of {@link DecodeSeam}
 * applied: each active defect turns one verdict of the (always correct) {@link PacketDecoder} into the verdict a
 * device with that bug would reach, rewriting the received bytes where the bug would read them differently. With no
 * defect active this is exactly the decoder and costs one branch.
 */
final class ReceiveDefects {
    private static final int KNOWN_FLAGS = PacketFlags.RETRANSMISSION | PacketFlags.ACK_REQUEST;

    private final PacketDecoder decoder = new PacketDecoder();
    private final Crc32cTrailer crc = new Crc32cTrailer();
    /** The verdicts the spec fixes here; see {@link DecodeSeam}. */
    private final DecodeSeam seam;
    /** Whether any decode-stage defect is active; the clean reference takes the decoder's verdict as it is. */
    private final boolean any;

    ReceiveDefects(final DecodeSeam seam) {
        this.seam = seam;
        this.any = seam != DecodeSeam.CORRECT;
    }

    /** Decodes the packet into {@code out}; returns the status the endpoint acts on (counts and drops unless OK). */
    DecodeStatus decode(final ByteBuffer buffer, final int offset, final int length, final DecodedPacket out) {
        final DecodeStatus status = decoder.decode(buffer, offset, length, out);
        return any ? review(status, buffer, offset, length, out) : status;
    }

    private DecodeStatus review(
            final DecodeStatus status,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final DecodedPacket out) {
        if (status == DecodeStatus.OK) {
            final CommonHeaderFlyweight header = out.commonHeader();
            if (seam.strictMinorVersion() && header.versionMinor() != 0) {
                return DecodeStatus.UNSUPPORTED_VERSION;
            }
            if (seam.rejectNonzeroReserved()
                    && (header.reserved1() != 0 || header.reserved2() != 0 || (header.flags() & ~KNOWN_FLAGS) != 0)) {
                return DecodeStatus.INVALID_FIELD;
            }
            return status;
        }
        final DecodeError error = out.error();
        if (seam.crcCheckedFirst()
                && (status == DecodeStatus.UNSUPPORTED_VERSION || status == DecodeStatus.UNKNOWN_OPCODE)
                && !crc.verify(buffer, offset, length)) {
            return DecodeStatus.BAD_CRC;
        }
        if (status == DecodeStatus.BAD_CRC && seam.acceptBadCrc()) {
            return redecode(buffer, offset, length, out); // never compares the trailer
        }
        if (status == DecodeStatus.UNSUPPORTED_VERSION && seam.acceptAnyMajorVersion()) {
            buffer.put(offset, (byte) WireConstants.VERSION_1_0);
            return redecode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.UNKNOWN_OPCODE && seam.unknownOpcodeAsWrite()) {
            buffer.put(offset + 1, (byte) Opcode.WRITE.value());
            return redecode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.INCONSISTENT_LENGTH
                && DecodeError.FIELD_PACKET_LENGTH.equals(error.field())
                && seam.lengthFromDatagram()) {
            final Opcode opcode = Opcode.fromValue(buffer.get(offset + 1) & 0xFF);
            final int payload = length - opcode.headerLength() - Crc32cTrailer.LENGTH;
            if (opcode.carriesPayload() && payload >= 0 && payload <= 0xFFFF) {
                putU16(buffer, offset + DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, payload);
                return redecode(buffer, offset, length, out);
            }
        }
        if (status == DecodeStatus.INCONSISTENT_LENGTH
                && DecodeError.FIELD_MESSAGE_OFFSET.equals(error.field())
                && seam.segmentBoundsUnchecked()
                && error.actual() <= 0xFFFF_FFFFL) {
            putU32(buffer, offset + DataHeaderFlyweight.MESSAGE_LENGTH_OFFSET, error.actual());
            return redecode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.INVALID_FIELD
                && "5.2.5".equals(error.clause())
                && seam.readRequestSegmentChecked()) {
            // The defect: a READ_REQUEST's offset and payload length field checked as a data packet's segment (5.2.2).
            final long end = getU32(buffer, offset + DataHeaderFlyweight.MESSAGE_OFFSET_OFFSET)
                    + (buffer.getShort(offset + DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET) & 0xFFFF);
            if (end > getU32(buffer, offset + DataHeaderFlyweight.MESSAGE_LENGTH_OFFSET)) {
                return DecodeStatus.INCONSISTENT_LENGTH;
            }
        }
        if (status == DecodeStatus.INVALID_FIELD
                && "5.2.5".equals(error.clause())
                && seam.readRequestFieldsUnchecked()) {
            putU16(buffer, offset + DataHeaderFlyweight.PAYLOAD_LENGTH_OFFSET, 0);
            putU32(buffer, offset + DataHeaderFlyweight.MESSAGE_OFFSET_OFFSET, 0);
            return redecode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.INVALID_FIELD
                && DecodeError.FIELD_SACK_BITMAP.equals(error.field())
                && seam.acceptSackBit0()) {
            // Reads bit 0 as "the cumulative PSN was received too".
            final int psnIndex = offset + CommonHeaderFlyweight.PSN_OFFSET;
            putU32(buffer, psnIndex, (getU32(buffer, psnIndex) + 1) & 0xFFFF_FFFFL);
            final int bitmap = offset + AckFlyweight.SACK_BITMAP_OFFSET;
            buffer.put(bitmap, (byte) (buffer.get(bitmap) & ~1));
            return redecode(buffer, offset, length, out);
        }
        if (status == DecodeStatus.INVALID_FIELD
                && DecodeError.FIELD_CODE.equals(error.field())
                && seam.unknownNackCodeAsRemoteAccess()) {
            buffer.put(offset + org.mrconf.wire.NackFlyweight.CODE_OFFSET, (byte) 0x01);
            return redecode(buffer, offset, length, out);
        }
        return status;
    }

    /** Re-decodes after the defect rewrote the bytes, with a trailer that matches them. */
    private DecodeStatus redecode(
            final ByteBuffer buffer, final int offset, final int length, final DecodedPacket out) {
        crc.write(buffer, offset, length);
        return decoder.decode(buffer, offset, length, out);
    }

    private static void putU16(final ByteBuffer buffer, final int index, final int value) {
        buffer.put(index, (byte) (value >>> 8));
        buffer.put(index + 1, (byte) value);
    }

    private static void putU32(final ByteBuffer buffer, final int index, final long value) {
        putU16(buffer, index, (int) (value >>> 16) & 0xFFFF);
        putU16(buffer, index + 2, (int) value & 0xFFFF);
    }

    private static long getU32(final ByteBuffer buffer, final int index) {
        long value = 0;
        for (int i = 0; i < 4; i++) {
            value = value << 8 | buffer.get(index + i) & 0xFF;
        }
        return value;
    }
}

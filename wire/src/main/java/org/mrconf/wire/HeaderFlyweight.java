package org.mrconf.wire;

import static org.mrconf.wire.CommonHeaderFlyweight.DESTINATION_CONNECTION_ID_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.FLAGS_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.OPCODE_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.PATH_ID_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.PSN_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.RESERVED_1_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.RESERVED_2_OFFSET;
import static org.mrconf.wire.CommonHeaderFlyweight.VERSION_OFFSET;

import java.nio.ByteBuffer;

/**
 * Base of the header flyweights: the common header of Table 5-1, read and written in place in a
 * ByteBuffer at an absolute index. Subclasses add the fields their opcode carries; the self type
 * {@code F} keeps the fluent setters chainable across the base and the subclass.
 *
 * <p>All accessors are absolute and big-endian whatever the buffer's {@code order()}; none of them
 * reads or moves the buffer's position or limit. Getters widen unsigned fields (u8 and u16 to int,
 * u32 to long). Setters write the low bits of the value without any range or protocol check, so a
 * tester peer can build any bit pattern; the {@code raw*} accessors reach any offset, reserved bytes
 * included. A flyweight is not thread-safe and holds no state but the buffer and offset it wraps.
 *
 * @param <F> the concrete flyweight type returned by the fluent setters
 */
public abstract class HeaderFlyweight<F extends HeaderFlyweight<F>> {
    private ByteBuffer buffer;
    private int offset;

    /** Points this flyweight at the packet starting at absolute {@code offset} of {@code buffer}. */
    public final F wrap(ByteBuffer buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        return self();
    }

    /** The wrapped buffer, or {@code null} before the first wrap. */
    public final ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the packet's first byte in the wrapped buffer. */
    public final int offset() {
        return offset;
    }

    /** Length of this header type, extensions included; the payload (if any) starts there. */
    public abstract int headerLength();

    /** The version byte: major version in the high nibble, minor in the low nibble. */
    public final int version() {
        return rawU8(VERSION_OFFSET);
    }

    public final F version(int value) {
        return rawU8(VERSION_OFFSET, value);
    }

    public final int versionMajor() {
        return version() >>> 4;
    }

    public final int versionMinor() {
        return version() & 0x0F;
    }

    /** The opcode byte as sent, known or not. */
    public final int opcodeValue() {
        return rawU8(OPCODE_OFFSET);
    }

    public final F opcodeValue(int value) {
        return rawU8(OPCODE_OFFSET, value);
    }

    /** The opcode, or {@code null} if the byte is not in Table 5-2. */
    public final Opcode opcode() {
        return Opcode.fromValue(opcodeValue());
    }

    public final F opcode(Opcode opcode) {
        return opcodeValue(opcode.value());
    }

    /** The flags field, Table 5-3 ({@link PacketFlags}). */
    public final int flags() {
        return rawU16(FLAGS_OFFSET);
    }

    public final F flags(int value) {
        return rawU16(FLAGS_OFFSET, value);
    }

    public final boolean hasFlags(int mask) {
        return PacketFlags.isSet(flags(), mask);
    }

    public final long destinationConnectionId() {
        return rawU32(DESTINATION_CONNECTION_ID_OFFSET);
    }

    public final F destinationConnectionId(long value) {
        return rawU32(DESTINATION_CONNECTION_ID_OFFSET, value);
    }

    public final int pathId() {
        return rawU8(PATH_ID_OFFSET);
    }

    public final F pathId(int value) {
        return rawU8(PATH_ID_OFFSET, value);
    }

    /** The reserved byte at offset 9; a minor version may define it (5.6.3). */
    public final int reserved1() {
        return rawU8(RESERVED_1_OFFSET);
    }

    public final F reserved1(int value) {
        return rawU8(RESERVED_1_OFFSET, value);
    }

    /** The reserved 16 bits at offset 10. */
    public final int reserved2() {
        return rawU16(RESERVED_2_OFFSET);
    }

    public final F reserved2(int value) {
        return rawU16(RESERVED_2_OFFSET, value);
    }

    /** The PSN field; its meaning depends on the opcode (Table 5-1). */
    public final long psn() {
        return rawU32(PSN_OFFSET);
    }

    /** Writes the low 32 bits, so {@code psn(MAX_PSN + 1)} writes 0, the serial-number wrap. */
    public final F psn(long value) {
        return rawU32(PSN_OFFSET, value);
    }

    /** The unsigned byte at {@code fieldOffset} from the start of the packet. */
    public final int rawU8(int fieldOffset) {
        return BigEndian.getU8(buffer, offset + fieldOffset);
    }

    public final F rawU8(int fieldOffset, int value) {
        BigEndian.putU8(buffer, offset + fieldOffset, value);
        return self();
    }

    /** The big-endian unsigned 16 bits at {@code fieldOffset} from the start of the packet. */
    public final int rawU16(int fieldOffset) {
        return BigEndian.getU16(buffer, offset + fieldOffset);
    }

    public final F rawU16(int fieldOffset, int value) {
        BigEndian.putU16(buffer, offset + fieldOffset, value);
        return self();
    }

    /** The big-endian unsigned 32 bits at {@code fieldOffset} from the start of the packet. */
    public final long rawU32(int fieldOffset) {
        return BigEndian.getU32(buffer, offset + fieldOffset);
    }

    public final F rawU32(int fieldOffset, long value) {
        BigEndian.putU32(buffer, offset + fieldOffset, value);
        return self();
    }

    /** The big-endian 64 bits at {@code fieldOffset}; u64 has no wider Java type, so read as raw bits. */
    public final long rawU64(int fieldOffset) {
        return BigEndian.getU64(buffer, offset + fieldOffset);
    }

    public final F rawU64(int fieldOffset, long value) {
        BigEndian.putU64(buffer, offset + fieldOffset, value);
        return self();
    }

    @SuppressWarnings("unchecked")
    protected final F self() {
        return (F) this;
    }

    /** Appends this header type's own fields (after the common ones) for {@link #toString()}. */
    protected abstract void appendFields(StringBuilder sb);

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(getClass().getSimpleName()).append('{');
        if (buffer == null) {
            return sb.append("unwrapped}").toString();
        }
        // toString must not throw on a short buffer: it is what tools print for bad packets.
        int available = buffer.limit() - offset;
        if (offset < 0 || available < CommonHeaderFlyweight.HEADER_LENGTH) {
            return sb.append("offset=").append(offset).append(", truncated}").toString();
        }
        Opcode opcode = opcode();
        sb.append("version=0x")
                .append(Integer.toHexString(version()))
                .append(", opcode=")
                .append(opcode != null ? opcode.name() : "0x" + Integer.toHexString(opcodeValue()))
                .append(", flags=")
                .append(PacketFlags.toString(flags()))
                .append(", destinationConnectionId=0x")
                .append(Long.toHexString(destinationConnectionId()))
                .append(", pathId=")
                .append(pathId())
                .append(", psn=")
                .append(psn());
        if (reserved1() != 0 || reserved2() != 0) {
            sb.append(", reserved1=").append(reserved1()).append(", reserved2=").append(reserved2());
        }
        if (available >= headerLength()) {
            appendFields(sb);
        } else {
            sb.append(", truncated");
        }
        return sb.append('}').toString();
    }
}

package org.mrconf.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Network-order reads and writes at absolute indices, whatever {@code order()} the caller's buffer
 * has. The multi-byte absolute accessors of ByteBuffer honour that setting, so values are swapped
 * when it is not BIG_ENDIAN; this keeps the caller's buffer state untouched and allocates nothing.
 */
final class BigEndian {
    private BigEndian() {}

    private static boolean swap(ByteBuffer buffer) {
        return buffer.order() != ByteOrder.BIG_ENDIAN;
    }

    static int getU8(ByteBuffer buffer, int index) {
        return buffer.get(index) & 0xFF;
    }

    static int getU16(ByteBuffer buffer, int index) {
        short value = buffer.getShort(index);
        return (swap(buffer) ? Short.reverseBytes(value) : value) & 0xFFFF;
    }

    static long getU32(ByteBuffer buffer, int index) {
        int value = buffer.getInt(index);
        return (swap(buffer) ? Integer.reverseBytes(value) : value) & 0xFFFF_FFFFL;
    }

    static long getU64(ByteBuffer buffer, int index) {
        long value = buffer.getLong(index);
        return swap(buffer) ? Long.reverseBytes(value) : value;
    }

    static void putU8(ByteBuffer buffer, int index, int value) {
        buffer.put(index, (byte) value);
    }

    static void putU16(ByteBuffer buffer, int index, int value) {
        short s = (short) value;
        buffer.putShort(index, swap(buffer) ? Short.reverseBytes(s) : s);
    }

    static void putU32(ByteBuffer buffer, int index, long value) {
        int i = (int) value;
        buffer.putInt(index, swap(buffer) ? Integer.reverseBytes(i) : i);
    }

    static void putU64(ByteBuffer buffer, int index, long value) {
        buffer.putLong(index, swap(buffer) ? Long.reverseBytes(value) : value);
    }
}

package org.mrconf.wire;

/**
 * Range checks for the packet records: a record value must fit its wire field, or encoding would
 * silently drop bits. The flyweights do not use these; they write any bits on purpose.
 */
final class FieldWidth {
    private FieldWidth() {}

    static int u8(int value, String field) {
        if ((value & ~0xFF) != 0) {
            throw new IllegalArgumentException(field + " does not fit 8 bits: " + value);
        }
        return value;
    }

    static int u16(int value, String field) {
        if ((value & ~0xFFFF) != 0) {
            throw new IllegalArgumentException(field + " does not fit 16 bits: " + value);
        }
        return value;
    }

    static long u32(long value, String field) {
        if ((value & ~0xFFFF_FFFFL) != 0) {
            throw new IllegalArgumentException(field + " does not fit 32 bits: " + value);
        }
        return value;
    }
}

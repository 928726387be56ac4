package org.mrconf.wire;

import java.util.Objects;

/**
 * Why {@link PacketDecoder#decode} rejected a packet: the status, the field at fault (one of the
 * {@code FIELD_*} constants), the spec clause, the value found and the bound it broke. The decoder
 * refills one instance per {@link DecodedPacket}, so rejecting allocates nothing; {@link #copy()}
 * keeps a result past the next decode.
 */
public final class DecodeError {
    public static final String FIELD_PACKET_LENGTH = "packet length";
    public static final String FIELD_VERSION = "version";
    public static final String FIELD_OPCODE = "opcode";
    public static final String FIELD_CRC32C = "crc32c";
    public static final String FIELD_MESSAGE_OFFSET = "message offset";
    public static final String FIELD_PAYLOAD_LENGTH = "payload length";
    public static final String FIELD_SACK_BITMAP = "sack bitmap";
    public static final String FIELD_CODE = "code";

    /** How {@link #actual()} relates to {@link #expected()} in a valid packet. */
    public enum Bound {
        NONE(""),
        EQUAL("=="),
        AT_LEAST(">="),
        AT_MOST("<="),
        /** A value from a table of the spec; {@link #expected()} is unused. */
        KNOWN_VALUE("a defined value");

        private final String symbol;

        Bound(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    private DecodeStatus kind = DecodeStatus.OK;
    private String field = "";
    private String clause = "";
    private long actual;
    private Bound bound = Bound.NONE;
    private long expected;

    /** The failed check, or OK when there is no error. */
    public DecodeStatus kind() {
        return kind;
    }

    /** The field at fault, a {@code FIELD_*} constant; empty when there is no error. */
    public String field() {
        return field;
    }

    /** The spec clause or table the check enforces, e.g. {@code "5.2.2"}. */
    public String clause() {
        return clause;
    }

    /**
     * The value found. For {@link #FIELD_MESSAGE_OFFSET} with INCONSISTENT_LENGTH it is message offset
     * + payload length, the end of the segment; for {@link #FIELD_VERSION} the major version.
     */
    public long actual() {
        return actual;
    }

    public Bound bound() {
        return bound;
    }

    /** The value or limit a valid packet has: the computed CRC, the required length, the message length... */
    public long expected() {
        return expected;
    }

    /** Fills this error; package-private because only the decoder reports errors. */
    void set(DecodeStatus kind, String field, String clause, long actual, Bound bound, long expected) {
        this.kind = kind;
        this.field = field;
        this.clause = clause;
        this.actual = actual;
        this.bound = bound;
        this.expected = expected;
    }

    void clear() {
        set(DecodeStatus.OK, "", "", 0, Bound.NONE, 0);
    }

    /** An independent copy, for keeping or throwing; allocates. */
    public DecodeError copy() {
        DecodeError copy = new DecodeError();
        copy.set(kind, field, clause, actual, bound, expected);
        return copy;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DecodeError e
                && kind == e.kind
                && field.equals(e.field)
                && clause.equals(e.clause)
                && actual == e.actual
                && bound == e.bound
                && expected == e.expected;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, field, clause, actual, bound, expected);
    }

    /** E.g. {@code BAD_CRC (5.6.2): crc32c = 0x1a2b3c4d, expected == 0x5e6f7081}. */
    @Override
    public String toString() {
        if (kind == DecodeStatus.OK) {
            return "OK";
        }
        StringBuilder sb = new StringBuilder(kind.name());
        if (!clause.isEmpty()) {
            sb.append(" (").append(clause).append(')');
        }
        sb.append(": ").append(field).append(" = ").append(format(actual));
        if (FIELD_MESSAGE_OFFSET.equals(field) && kind == DecodeStatus.INCONSISTENT_LENGTH) {
            sb.append(" (message offset + payload length)");
        }
        if (bound == Bound.KNOWN_VALUE) {
            sb.append(", expected ").append(bound.symbol());
        } else if (bound != Bound.NONE) {
            sb.append(", expected ").append(bound.symbol()).append(' ').append(format(expected));
        }
        return sb.toString();
    }

    private String format(long value) {
        boolean hex = FIELD_CRC32C.equals(field) || FIELD_OPCODE.equals(field) || FIELD_CODE.equals(field);
        return hex ? "0x" + Long.toHexString(value) : Long.toString(value);
    }
}

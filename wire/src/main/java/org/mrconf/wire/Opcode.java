package org.mrconf.wire;

/**
 * The packet types of Table 5-2 with their fixed header lengths. The decoder maps the opcode byte
 * with {@link #fromValue(int)}, which allocates nothing.
 */
public enum Opcode {
    WRITE(0x01, 48, true),
    WRITE_WITH_IMMEDIATE(0x02, 52, true),
    SEND(0x03, 40, true),
    READ_REQUEST(0x04, 52, false),
    READ_RESPONSE(0x05, 40, true),
    ACK(0x10, 60, false),
    NACK(0x11, 32, false),
    PROBE(0x12, 20, false);

    // Indexed by the opcode byte; values() would clone an array on every lookup.
    private static final Opcode[] BY_VALUE = new Opcode[256];

    static {
        for (Opcode opcode : values()) {
            BY_VALUE[opcode.value] = opcode;
        }
    }

    private final int value;
    private final int headerLength;
    private final boolean carriesPayload;

    Opcode(int value, int headerLength, boolean carriesPayload) {
        this.value = value;
        this.headerLength = headerLength;
        this.carriesPayload = carriesPayload;
    }

    /** The opcode with this byte value, or {@code null} if Table 5-2 does not define it. */
    public static Opcode fromValue(int value) {
        return (value & ~0xFF) == 0 ? BY_VALUE[value] : null;
    }

    /** The opcode byte. */
    public int value() {
        return value;
    }

    /** Bytes from the start of the packet to the first payload byte (or to the trailer). */
    public int headerLength() {
        return headerLength;
    }

    /** Whether the packet is a data packet that carries payload bytes (Table 5-2). */
    public boolean carriesPayload() {
        return carriesPayload;
    }

    /** Whether the packet carries the data header of Table 5-4: the data packets and READ_REQUEST. */
    public boolean hasDataHeader() {
        return carriesPayload || this == READ_REQUEST;
    }

    /** Length of a packet of this opcode with {@code payloadLength} payload bytes, trailer included. */
    public int packetLength(int payloadLength) {
        return headerLength + payloadLength + WireConstants.TRAILER_LENGTH;
    }
}

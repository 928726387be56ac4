package org.mrconf.wire;

/**
 * The bits of the 16-bit flags field of the common header (Table 5-3). Senders and the tester peer
 * combine them with {@code |}; receivers test them with {@link #isSet(int, int)}.
 */
public final class PacketFlags {
    /** No flag set. */
    public static final int NONE = 0;
    /** The packet is a retransmission of a PSN already sent on this path (clause 6.4.2). */
    public static final int RETRANSMISSION = 0x0001;
    /** The sender asks for an immediate ACK (clause 8.1.3); every PROBE sets it (clause 5.5.1). */
    public static final int ACK_REQUEST = 0x0002;
    /** All bits this draft defines. */
    public static final int DEFINED_MASK = RETRANSMISSION | ACK_REQUEST;
    /** Bits sent as zero and ignored on receipt. */
    public static final int RESERVED_MASK = 0xFFFF & ~DEFINED_MASK;

    private PacketFlags() {}

    /** Whether every bit of {@code mask} is set in {@code flags}. */
    public static boolean isSet(int flags, int mask) {
        return (flags & mask) == mask;
    }

    /** Names the set flags for logs, e.g. {@code RETRANSMISSION|ACK_REQUEST|0x0100}; allocates. */
    public static String toString(int flags) {
        StringBuilder sb = new StringBuilder();
        if (isSet(flags, RETRANSMISSION)) {
            sb.append("RETRANSMISSION");
        }
        if (isSet(flags, ACK_REQUEST)) {
            sb.append(sb.length() == 0 ? "" : "|").append("ACK_REQUEST");
        }
        int rest = flags & ~DEFINED_MASK;
        if (rest != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append(String.format("0x%04x", rest));
        }
        return sb.length() == 0 ? "NONE" : sb.toString();
    }
}

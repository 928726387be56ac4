package org.mrconf.wire;

/**
 * The outcome of {@link PacketDecoder#decode}: OK, or the first check the packet failed, in the order
 * the decoder applies them. Receivers count drops per status; the suite asserts on them.
 */
public enum DecodeStatus {
    /** The packet passed every check. */
    OK,
    /**
     * Shorter than a common header and trailer or than its opcode's header and trailer (5.1.3), or
     * longer than the buffer holds at that offset.
     */
    TRUNCATED,
    /** The major version is not 1 (5.6.3). */
    UNSUPPORTED_VERSION,
    /** The opcode is not in Table 5-2 (5.1.2). */
    UNKNOWN_OPCODE,
    /** The CRC32C trailer does not match (5.6.2). */
    BAD_CRC,
    /** The packet length disagrees with the header, or a segment runs past its message (5.1.3, 5.2.2). */
    INCONSISTENT_LENGTH,
    /** A field holds a value its opcode forbids (5.2.5, 5.3.2, 5.4.1). */
    INVALID_FIELD
}

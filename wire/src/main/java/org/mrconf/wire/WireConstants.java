package org.mrconf.wire;

/**
 * Numbers of the MetaRoCE Open Draft wire format that are not tied to one header (spec section 5).
 * Used by the codec itself, the reference transport and the tester peer.
 */
public final class WireConstants {
    /** The version byte of this draft: major 1 in the high nibble, minor 0 in the low nibble (5.6.3). */
    public static final int VERSION_1_0 = 0x10;
    /** The only major version this codec implements; any minor version of it is accepted (5.6.3). */
    public static final int VERSION_MAJOR_1 = 1;
    /** Provisional UDP destination port; the transport and the CLI make it configurable. */
    public static final int DEFAULT_UDP_PORT = 4796;
    /** Length of the CRC32C trailer that ends every packet (Table 5-12). */
    public static final int TRAILER_LENGTH = 4;
    /** Bits in the ACK's SACK bitmap (Table 5-9). */
    public static final int SACK_BITS = 256;
    /** Number of distinct path ids, 0 to 255 (Table 5-1). */
    public static final int MAX_PATHS = 256;
    /** Shortest byte sequence the decoder looks into: a common header and a trailer. */
    public static final int MIN_PACKET_LENGTH = CommonHeaderFlyweight.HEADER_LENGTH + TRAILER_LENGTH;
    /** Largest value of the 16-bit payload length field (Table 5-4). */
    public static final int MAX_PAYLOAD_LENGTH = 0xFFFF;
    /** Largest PSN; PSNs are compared in serial order modulo 2^32 (clause 6.1.2). */
    public static final long MAX_PSN = 0xFFFF_FFFFL;

    private WireConstants() {}
}

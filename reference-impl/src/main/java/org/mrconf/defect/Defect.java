package org.mrconf.defect;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The catalogue of deliberate non-conformances the reference can be told to commit, so that {@code metaroce selftest}
 * can prove each conformance case catches what its clause forbids. Each constant says in one sentence what it does
 * wrong, names the clauses it breaks and the case that catches it, and is consulted at exactly one decision point of
 * the reference (read once into a final boolean field, so a defect that is off costs nothing measurable).
 *
 * <p>Every constant is off unless selected with {@code metaroce dut serve --defect NAME} or
 * {@code --dut 'reference?defect=NAME'}; a device running any of them says so in {@code hello}.
 *
 * <p>Constants are grouped by spec section, one block per section range, so that additions merge cleanly.
 */
public enum Defect {
    // ------------------------------------------------------------------ sections 3 to 5

    /** Drops packets whose minor version is not 0, instead of accepting any minor version of major 1. */
    STRICT_MINOR_VERSION(breaks("5.6.3")),

    /** Places and acknowledges a packet whose CRC32C trailer does not match instead of dropping it. */
    ACCEPT_BAD_CRC(breaks("5.6.2")),

    // ------------------------------------------------------------------ sections 6 and 7

    // ------------------------------------------------------------------ sections 8 to 12

    /**
     * Answers a WRITE, WRITE_WITH_IMMEDIATE or READ_REQUEST whose key names no region with NACK BOUNDS instead of
     * REMOTE_ACCESS. Caught by {@code MemoryProtectionCase.writeWithUnknownKey}.
     */
    UNKNOWN_KEY_NACKED_AS_BOUNDS(breaks("11.1.1", "9.1.1")),

    /** Places a WRITE into a region without REMOTE_WRITE. Caught by {@code MemoryProtectionCase.writeNeedsRemoteWrite}. */
    IGNORE_REMOTE_WRITE_FLAG(breaks("11.1.2")),

    /**
     * Checks REMOTE_WRITE for WRITE but not for WRITE_WITH_IMMEDIATE, as a second code path that forgot it. Caught by
     * {@code MemoryProtectionCase.writeNeedsRemoteWrite}.
     */
    IGNORE_REMOTE_WRITE_FLAG_FOR_IMMEDIATE(breaks("11.1.2")),

    /** Serves a READ_REQUEST from a region without REMOTE_READ. Caught by {@code MemoryProtectionCase.readNeedsRemoteRead}. */
    IGNORE_REMOTE_READ_FLAG(breaks("11.1.2")),

    /**
     * Bounds-checks each WRITE packet's own bytes instead of the whole message range, so the in-bounds packets of an
     * out-of-bounds message are placed. Caught by {@code MemoryProtectionCase.writeBoundsCoverTheWholeMessage}.
     */
    BOUNDS_CHECKED_PER_PACKET(breaks("11.1.3")),

    /**
     * Keeps an invalidated region's key in the key table, so remote WRITEs and READs still reach the old memory.
     * Caught by {@code MemoryProtectionCase.invalidatedKeyIsRefused}.
     */
    INVALIDATED_KEY_STILL_VALID(breaks("11.1.4")),

    /**
     * Fills and completes a posted receive whose buffer's region was invalidated. Caught by
     * {@code MemoryProtectionCase.invalidatedReceiveBufferIsNotFilled}.
     */
    INVALIDATION_MISSES_POSTED_RECEIVES(breaks("11.1.4")),

    /**
     * Keeps sending the queued packets of a WRITE whose source region was invalidated. Caught by
     * {@code MemoryProtectionCase.invalidatedSourceIsNotSent}.
     */
    INVALIDATION_MISSES_QUEUED_SENDS(breaks("11.1.4")),

    /**
     * Places a SEND longer than its receive buffer at the buffer's address + offset, past the buffer's end, instead of
     * refusing it. Caught by {@code MemoryProtectionCase.sendStaysInsideItsBuffer}.
     */
    SEND_OVERRUNS_RECEIVE_BUFFER(breaks("11.1.5", "7.3.3")),

    /**
     * Answers every packet for an unknown connection from a connection's peer with NACK UNKNOWN_CONNECTION, with no
     * rate limit: a reflector. Caught by {@code ConnectionProtectionCase.unknownConnectionNacksAreRateLimited}.
     */
    UNKNOWN_CONNECTION_NACK_FLOOD(breaks("11.2.1")),

    /**
     * Accepts packets for a known connection from any source address. Caught by
     * {@code ConnectionProtectionCase.foreignSourceIsDroppedForEveryOpcode}.
     */
    FOREIGN_SOURCE_ACCEPTED(breaks("11.2.2")),
    ;

    private final List<String> clauses;

    Defect(final List<String> clauses) {
        this.clauses = clauses;
    }

    private static List<String> breaks(final String... clauseIds) {
        return List.of(clauseIds);
    }

    /** The ids of the spec clauses this defect breaks: the cases of these clauses must FAIL against it. */
    public List<String> clauses() {
        return clauses;
    }

    /** The name used on the command line and in {@code hello}: lower case with dashes, e.g. {@code accept-bad-crc}. */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The defect named {@code name}, in {@link #flagName()} form or as the constant's name.
     *
     * @throws IllegalArgumentException naming the unknown name and listing every known one
     */
    public static Defect fromName(final String name) {
        final String normalised = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final Defect defect : values()) {
            if (defect.name().equals(normalised)) {
                return defect;
            }
        }
        throw new IllegalArgumentException("unknown defect \"" + name.strip() + "\"; known defects: " + allNames());
    }

    /** Every flag name, comma separated, in catalogue order. */
    public static String allNames() {
        return Arrays.stream(values()).map(Defect::flagName).collect(Collectors.joining(", "));
    }
}

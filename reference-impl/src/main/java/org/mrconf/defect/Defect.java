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

    /** Treats the last agreed path (id n-1) as unknown and drops its packets (off by one); caught by PathsAndStreamsCase. */
    LAST_PATH_REJECTED(breaks("3.1.1")),

    /** Keeps one receive state (PSN window, ACK state) for all paths, that of path 0; caught by PathsAndStreamsCase. */
    SHARED_RECEIVE_STATE(breaks("3.1.2")),

    /** Drops packets on path ids 4 and above, so a connection has at most 4 working paths; caught by PathsAndStreamsCase. */
    FOUR_PATHS_ONLY(breaks("3.1.3")),

    /** Rejects packets of the last agreed stream (off by one on the stream count); caught by PathsAndStreamsCase. */
    LAST_STREAM_REJECTED(breaks("3.1.4")),

    /** Rejects packets of stream ids 8 and above, so a connection has at most 8 working streams; caught by PathsAndStreamsCase. */
    EIGHT_STREAMS_ONLY(breaks("3.1.5")),

    /** Drops a packet of stream s that arrives on a path other than s mod paths; caught by PathsAndStreamsCase. */
    STREAM_BOUND_TO_PATH(breaks("3.1.6")),

    /** Puts a 4-byte shim before the MetaRoCE header of every data packet it sends; caught by EncapsulationCase. */
    SHIM_BEFORE_HEADER(breaks("4.1.1")),

    /** Sends to port 4796 whatever destination port the connection was set up with; caught by EncapsulationCase. */
    SEND_TO_DEFAULT_PORT(breaks("4.1.3")),

    /** Drops a data packet whose UDP source port differs from the last one seen on its path; caught by EncapsulationCase. */
    DROP_ON_ENTROPY_CHANGE(breaks("4.1.4")),

    /** Gives every path of a connection the same entropy (UDP source port); caught by EncapsulationCase. */
    SAME_ENTROPY_ALL_PATHS(breaks("4.1.5")),

    /** Sends data packets and READ_REQUESTs Not-ECT instead of ECN-capable; caught by EncapsulationCase. */
    NOT_ECT_ON_DATA(breaks("4.1.7")),

    /** Counts a CE-marked data packet and then drops it instead of processing it; caught by EncapsulationCase. */
    DROP_CE_MARKED(breaks("4.1.7")),

    /** Discards every packet that is not the next in order on its path (a go-back-N receiver that needs PFC); caught by EncapsulationCase. */
    DROP_OUT_OF_ORDER(breaks("4.1.8")),

    /** Fills data packets one byte short of the largest payload the MTU allows; caught by EncapsulationCase. */
    UNDERFILLED_SEGMENTS(breaks("4.1.9")),

    /** Sizes data packets to the MTU without counting the IP header, so its datagrams exceed the MTU; caught by EncapsulationCase. */
    MTU_WITHOUT_IP_HEADER(breaks("4.1.9")),

    /** Starts every path's receive PSN space at 0 whatever initial PSN was agreed at setup; caught by ConnectionsCase. */
    IGNORE_INITIAL_PSN(breaks("4.2.1")),

    /** Destroys a connection without completing its outstanding work requests and receives; caught by ConnectionsCase. */
    NO_FLUSH_ON_DESTROY(breaks("4.2.2")),

    /** Sends data packets with a non-zero reserved byte and a reserved flag set; caught by HeaderFieldsCase. */
    NONZERO_RESERVED_ON_SEND(breaks("5.1.1")),

    /** Drops packets whose reserved fields or flags are not zero instead of ignoring them; caught by HeaderFieldsCase. */
    REJECT_NONZERO_RESERVED(breaks("5.1.1")),

    /** Decodes a packet of an opcode it does not know as a WRITE; caught by ReceiveChecksCase. */
    UNKNOWN_OPCODE_AS_WRITE(breaks("5.1.2")),

    /** Takes the payload length from the datagram, ignoring a payload length field that disagrees; caught by ReceiveChecksCase. */
    LENGTH_FROM_DATAGRAM(breaks("5.1.3")),

    /** Sends each packet's own payload length as the message length; caught by HeaderFieldsCase. */
    MESSAGE_LENGTH_PER_PACKET(breaks("5.2.1")),

    /** Accepts and places a segment that runs past the end of its message; caught by ReceiveChecksCase. */
    SEGMENT_BOUNDS_UNCHECKED(breaks("5.2.2")),

    /** Sends each WRITE packet with the address of its own first byte instead of the message's; caught by HeaderFieldsCase. */
    PER_PACKET_REMOTE_ADDRESS(breaks("5.2.3")),

    /** Sends a SEND's MSN as its RSN; caught by HeaderFieldsCase. */
    RSN_FROM_MSN(breaks("5.2.4")),

    /** Answers a READ_REQUEST with a non-zero message offset or payload length instead of dropping it; caught by ReceiveChecksCase. */
    READ_REQUEST_FIELDS_UNCHECKED(breaks("5.2.5")),

    /** Sends READ_RESPONSEs with MSN 0 instead of the MSN of the READ_REQUEST they answer; caught by HeaderFieldsCase. */
    READ_RESPONSE_MSN_ZERO(breaks("5.2.6")),

    /** Sends an ACK's psn field as the last PSN received instead of the lowest not yet received; caught by AckNackProbeCase. */
    ACK_LAST_RECEIVED_PSN(breaks("5.3.1")),

    /** Writes each byte of the SACK bitmap most significant bit first; caught by AckNackProbeCase. */
    SACK_MSB_FIRST(breaks("5.3.1")),

    /** Takes SACK bit 0 of an ACK as acknowledging the cumulative PSN instead of dropping the ACK; caught by AckNackProbeCase. */
    ACCEPT_SACK_BIT0(breaks("5.3.2")),

    /** Sends every NACK with path id 0 whatever path the rejected packet came on; caught by AckNackProbeCase. */
    NACK_ON_PATH_ZERO(breaks("5.4.1")),

    /** Answers a PROBE with an ACK echoing the path's last data timestamp instead of the PROBE's; caught by AckNackProbeCase. */
    PROBE_ECHOES_DATA_TIMESTAMP(breaks("5.5.1")),

    /** Stores the CRC32C trailer of data packets little-endian; caught by HeaderFieldsCase. */
    CRC_LITTLE_ENDIAN(breaks("5.6.1")),

    /** Places and acknowledges a packet whose CRC32C trailer does not match instead of dropping it; caught by IntegrityCase and ReceiveChecksCase. */
    ACCEPT_BAD_CRC(breaks("5.6.2")),

    /** Drops packets whose minor version is not 0 instead of accepting any minor version of major 1; caught by IntegrityCase and ReceiveChecksCase. */
    STRICT_MINOR_VERSION(breaks("5.6.3")),

    /** Accepts packets of any major version as version 1; caught by ReceiveChecksCase. */
    ACCEPT_ANY_MAJOR_VERSION(breaks("5.6.3")),

    /** Sends version 1.1 instead of 1.0; caught by HeaderFieldsCase. */
    SEND_MINOR_VERSION(breaks("5.6.3")),

    /** Checks the CRC before the version and the opcode, so such packets land in the bad-CRC counter; caught by ReceiveChecksCase. */
    CRC_CHECKED_FIRST(breaks("5.6.4")),

// ------------------------------------------------------------------ sections 6 and 7

// ------------------------------------------------------------------ sections 8 to 12

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

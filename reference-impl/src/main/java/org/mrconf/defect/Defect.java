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
     * Claims the read profile in {@code hello} but refuses every READ_REQUEST with NACK INVALID_REQUEST: a claim whose
     * behaviour is missing. Caught by {@code DeclarationsCase.claimedProfilesAreImplemented}.
     */
    READ_CLAIMED_BUT_MISSING(breaks("12.1.1")),

    /** Leaves the firmware version out of {@code hello}'s implementation statement. Caught by {@code DeclarationsCase.conformanceStatementIsComplete}. */
    HELLO_OMITS_FIRMWARE(breaks("12.1.2")),

    /**
     * Reports in {@code hello} an MTU 512 bytes below the one it works with and declares. Caught by
     * {@code DeclarationsCase.testParametersAreConsistent}.
     */
    HELLO_UNDERSTATES_MTU(breaks("12.1.3")),

    /** Leaves the rx_unexpected_source counter out of {@code read_counters}. Caught by {@code DeclarationsCase.everyCounterIsObservable}. */
    COUNTER_MISSING(breaks("12.1.4")),

    /** Always reports a CE count of 0. Caught by {@code CongestionCase.ceCountPerPath}. */
    CE_COUNT_NEVER_SET(breaks("8.2.2")),

    /**
     * Counts CE marks per connection instead of per path: a mark on one path shows in the next ACK of every path.
     * Caught by {@code CongestionCase.ceCountPerPath}.
     */
    CE_COUNTED_PER_CONNECTION(breaks("8.2.2")),

    /** Sends the ACK of a duplicate with rate hint 0. Caught by {@code CongestionCase.rateHintInEveryAck}. */
    RATE_HINT_MISSING_FROM_DUPLICATE_ACKS(breaks("8.2.3")),

    /** Ignores the rate hint of ACKs: paces at line rate only. Caught by {@code CongestionCase.sendingRateKeepsToTheHint}. */
    RATE_HINT_IGNORED(breaks("10.1.4")),

    /**
     * Reads the rate hint as Mbyte/s instead of Mbit/s, sending eight times faster than hinted. Caught by
     * {@code CongestionCase.sendingRateKeepsToTheHint}.
     */
    RATE_HINT_READ_AS_BYTES(breaks("10.1.4")),

    /** Never decreases a congestion window on CE reports. Caught by {@code CongestionCase.perPathAimd}. */
    NO_MULTIPLICATIVE_DECREASE(breaks("10.1.1", "10.1.2")),

    /** Grows a window by one packet per acknowledged packet (exponentially) instead of one per window. Caught by {@code CongestionCase.perPathAimd}. */
    WINDOW_GROWTH_EXPONENTIAL(breaks("10.1.1", "10.1.2")),

    /** Decreases a window on every ACK with CE, not at most once per smoothed RTT. Caught by {@code CongestionCase.perPathAimd}. */
    DECREASE_ON_EVERY_CE_ACK(breaks("10.1.1", "10.1.2")),

    /**
     * Applies a CE report on one path to the windows of every path. Caught by {@code CongestionCase.perPathAimd}.
     */
    DECREASE_APPLIED_TO_ALL_PATHS(breaks("10.1.1")),

    /** Puts every new PSN on path 0 while it has window, leaving the other paths idle. Caught by {@code CongestionCase.spraysOverEveryHealthyPath}. */
    SPRAY_FIRST_PATH_ONLY(breaks("10.2.1")),

    /**
     * Coalesces the ACK of a packet that opens or extends a gap like an in-order one, instead of acknowledging it at
     * once. Caught by {@code AcknowledgementCase.gapsAndDuplicatesAreAcknowledgedAtOnce}.
     */
    NO_IMMEDIATE_ACK_ON_GAP(breaks("8.1.2")),

    /** Counts a duplicate but sends no ACK for it. Caught by {@code AcknowledgementCase.gapsAndDuplicatesAreAcknowledgedAtOnce}. */
    DUPLICATE_NOT_ACKNOWLEDGED(breaks("8.1.2")),

    /** Ignores ACK_REQUEST: such packets are coalesced like any other. Caught by {@code AcknowledgementCase.ackRequestIsAnsweredAtOnce}. */
    ACK_REQUEST_IGNORED(breaks("8.1.3")),

    /**
     * Reads the declared ACK delay as milliseconds instead of microseconds: a coalesced ACK waits 1000 times too
     * long. Caught by {@code AcknowledgementCase.ackDelayIsBounded}.
     */
    ACK_DELAY_IN_MILLISECONDS(breaks("8.1.4")),

    /**
     * Ignores the ACK coalescing count: in-order packets are acknowledged only when the ACK delay expires. Caught by
     * {@code AcknowledgementCase.ackCoalescingIsBounded}.
     */
    ACK_COALESCING_COUNT_IGNORED(breaks("8.1.4")),

    /**
     * Fills an ACK of path p with the cumulative PSN and SACK bitmap of path p + 1. Caught by
     * {@code AcknowledgementCase.ackDescribesItsOwnPath}.
     */
    ACK_REPORTS_ANOTHER_PATH(breaks("8.1.5")),

    /** Echoes the timestamp of a path's first packet in every later ACK. Caught by {@code AcknowledgementCase.ackEchoesTheLatestTimestamp}. */
    TIMESTAMP_ECHO_STUCK(breaks("8.2.1")),

    /**
     * Keeps echoing the previous timestamp when the latest packet is a retransmission. Caught by
     * {@code AcknowledgementCase.ackEchoesTheLatestTimestamp}.
     */
    TIMESTAMP_ECHO_SKIPS_RETRANSMISSIONS(breaks("8.2.1")),

    /**
     * Answers a SEND with no receive posted with NACK INVALID_REQUEST instead of RECEIVER_NOT_READY. Caught by
     * {@code NackCase.receiverNotReady}.
     */
    RECEIVER_NOT_READY_WRONG_CODE(breaks("9.1.1")),

    /** Answers a SEND longer than its receive with NACK BOUNDS instead of MESSAGE_TOO_LONG. Caught by {@code NackCase.messageTooLong}. */
    MESSAGE_TOO_LONG_WRONG_CODE(breaks("9.1.1")),

    /** Answers a packet for a stream the connection lacks with NACK REMOTE_ACCESS instead of INVALID_REQUEST. Caught by {@code NackCase.invalidStream}. */
    INVALID_REQUEST_WRONG_CODE(breaks("9.1.1")),

    /** Answers a packet beyond the receive window with NACK INVALID_REQUEST instead of PSN_OUT_OF_WINDOW. Caught by {@code NackCase.psnOutOfWindow}. */
    OUT_OF_WINDOW_WRONG_CODE(breaks("9.1.1")),

    /** Answers a WRITE whose range leaves its region with NACK REMOTE_ACCESS instead of BOUNDS. Caught by {@code MemoryProtectionCase.writeOutOfBounds}. */
    BOUNDS_WRONG_CODE(breaks("9.1.1", "11.1.3")),

    /** Drops a packet beyond the receive window silently instead of NACKing it. Caught by {@code NackCase.psnOutOfWindow}. */
    OUT_OF_WINDOW_NOT_NACKED(breaks("9.1.1")),

    /**
     * NACKs a packet from a foreign source address (with REMOTE_ACCESS, to the connection's peer) where a silent drop
     * is due. Caught by {@code ConnectionProtectionCase.foreignSourceIsDroppedForEveryOpcode}.
     */
    FOREIGN_SOURCE_NACKED(breaks("11.2.2", "9.1.1")),

    /**
     * Handles NACK RECEIVER_NOT_READY as fatal: fails the work request instead of retrying. Caught by
     * {@code NackCase.receiverNotReadyIsRetried}.
     */
    RECEIVER_NOT_READY_FATAL(breaks("9.1.2")),

    /** Retries a RECEIVER_NOT_READY packet at once, ignoring the retry-after. Caught by {@code NackCase.receiverNotReadyIsRetried}. */
    RETRY_AFTER_IGNORED(breaks("9.1.2")),

    /**
     * Treats the final codes as retryable: retransmits the packet instead of failing the work request. Caught by
     * {@code NackCase.finalCodesFailTheWorkRequest}.
     */
    FINAL_NACK_RETRANSMITTED(breaks("9.1.2")),

    /** Completes a work request NACKed BOUNDS with REMOTE_ACCESS_ERROR. Caught by {@code NackCase.finalCodesFailTheWorkRequest}. */
    BOUNDS_ERROR_MISREPORTED(breaks("9.1.2", "7.5.8")),

    /**
     * Fails only the NACKed work request on UNKNOWN_CONNECTION, leaving the connection up. Caught by
     * {@code NackCase.unknownConnectionFailsTheConnection}.
     */
    UNKNOWN_CONNECTION_FAILS_ONLY_MESSAGE(breaks("9.1.2")),

    /**
     * Places a WRITE that is beyond the receive window before NACKing it PSN_OUT_OF_WINDOW. Caught by
     * {@code NackCase.psnOutOfWindow}.
     */
    OUT_OF_WINDOW_PLACED(breaks("9.1.3")),

    /**
     * Does not record the PSN of a packet NACKed with a final code, so the path's cumulative PSN stalls on it. Caught by
     * {@code NackCase.finalAccessCodesRecordThePsn}.
     */
    FINAL_NACK_PSN_NOT_RECORDED(breaks("9.1.4")),

    /**
     * Records the PSN of a SEND NACKed RECEIVER_NOT_READY as received, so its retry is a duplicate. Caught by
     * {@code NackCase.receiverNotReady}.
     */
    RECEIVER_NOT_READY_PSN_RECORDED(breaks("9.1.4", "7.3.2", "8.1.1")),

    /**
     * NACKs every later packet of a message it refused with a final code again, with no rate limit (a SHOULD: WARN).
     * Caught by {@code NackCase.nackRateLimit}.
     */
    NACK_RATE_LIMIT_MISSING(breaks("9.1.5")),

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

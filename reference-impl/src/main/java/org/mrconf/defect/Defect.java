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

    /** Keeps one receive state (PSN window, ACK state) for all paths, that of path 0; caught by PathsAndStreamsCase and the vector 3.1.2/loss-on-one-path-leaves-the-other. */
    SHARED_RECEIVE_STATE(breaks("3.1.2")),

    /** Drops packets on path ids 4 and above, so a connection has at most 4 working paths; caught by PathsAndStreamsCase. */
    FOUR_PATHS_ONLY(breaks("3.1.3")),

    /** Rejects packets of the last agreed stream (off by one on the stream count); caught by PathsAndStreamsCase. */
    LAST_STREAM_REJECTED(breaks("3.1.4")),

    /** Rejects packets of stream ids 8 and above, so a connection has at most 8 working streams; caught by PathsAndStreamsCase. */
    EIGHT_STREAMS_ONLY(breaks("3.1.5")),

    /** Drops a packet of stream s that arrives on a path other than s mod paths; caught by PathsAndStreamsCase. */
    STREAM_BOUND_TO_PATH(breaks("3.1.6")),

    /**
     * Sends everything for a peer to the UDP source port it was last heard from (a naive UDP server's reply), not
     * to the port given at set-up; caught by {@code ConnectionsCase.packetsGoToTheSetUpPort}.
     */
    ANSWER_TO_SOURCE_PORT(breaks("4.2.3")),

    /**
     * Accepts a second connection to a peer address on another peer port, but keeps sending to the first port; caught
     * by {@code ConnectionsCase.anotherPeerPortIsRefusedOrHonoured}.
     */
    SECOND_PEER_PORT_IGNORED(breaks("4.2.3")),

    /** Puts a 4-byte shim before the MetaRoCE header of every data packet it sends; caught by EncapsulationCase. */
    SHIM_BEFORE_HEADER(breaks("4.1.1")),

    /** Sends to port 4796 whatever destination port the connection was set up with; caught by EncapsulationCase. */
    SEND_TO_DEFAULT_PORT(breaks("4.1.3")),

    /** Drops a data packet whose UDP source port differs from the last one seen on its path; caught by EncapsulationCase. */
    DROP_ON_ENTROPY_CHANGE(breaks("4.1.4")),

    /** Sends a path's ACKs and NACKs from the source port of the path's first packet, not its most recent one, so they never follow a re-pathed sender. Caught by {@code AckEntropyCase}. */
    ACK_ENTROPY_FROM_FIRST_PACKET(breaks("8.1.6")),

    /** Gives every path of a connection the same entropy (UDP source port); caught by EncapsulationCase. */
    SAME_ENTROPY_ALL_PATHS(breaks("4.1.5")),

    /** Over IPv6 drops every datagram it receives as truncated (an IPv6 receive path never enabled), though it claims the ipv6 profile (caught by EncapsulationCase.ipv6Carriage against the IPv6 configuration). */
    IPV6_RECEIVE_DROPPED(breaks("4.1.2")),
    /** Never verifies a received UDP checksum: a datagram with a wrong non-zero checksum is delivered (caught by UdpChecksumCase.overIpv4 against the frames configuration and UdpChecksumCase.overIpv6 against the IPv6 one). */
    UDP_CHECKSUM_UNCHECKED(breaks("4.1.6")),
    /** Over IPv4 treats a zero UDP checksum as wrong and drops the datagram, though zero means "no checksum" there (caught by UdpChecksumCase.overIpv4 against the frames configuration). */
    IPV4_ZERO_UDP_CHECKSUM_DROPPED(breaks("4.1.6")),
    /** Over IPv6 accepts a datagram with a zero UDP checksum, as IPv4 would (caught by UdpChecksumCase.overIpv6 against the IPv6 configuration). */
    IPV6_ZERO_UDP_CHECKSUM_ACCEPTED(breaks("4.1.6")),
    /** Over IPv6 sends every datagram with a zero UDP checksum, the IPv4 habit of RoCEv2 (caught by UdpChecksumCase.overIpv6 against the IPv6 configuration). */
    IPV6_UDP_CHECKSUM_OMITTED(breaks("4.1.6")),
    /** Sums the UDP checksum over the UDP header and payload only, leaving out the IP pseudo-header (caught by both UdpChecksumCase tests, which check every frame the DUT sends). */
    UDP_CHECKSUM_WITHOUT_PSEUDO_HEADER(breaks("4.1.6")),
    /** Sends data packets and READ_REQUESTs Not-ECT instead of ECN-capable; caught by EncapsulationCase.dataIsEcnCapable, in memory, over raw Ethernet and over UDP. */
    NOT_ECT_ON_DATA(breaks("4.1.7")),

    /** Counts a CE-marked data packet and then drops it instead of processing it; caught by EncapsulationCase. */
    DROP_CE_MARKED(breaks("4.1.7")),

    /** Discards every packet that is not the next in order on its path (a go-back-N receiver that needs PFC); caught by EncapsulationCase and the vector 4.1.8/write-repaired-after-a-loss. */
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

    /**
     * Takes a PSN exactly cumulative PSN + 2^31 as after the cumulative PSN (the serial comparison's undefined point,
     * {@code >} where {@code >=} belongs), so it NACKs it PSN_OUT_OF_WINDOW instead of acknowledging a duplicate
     * (Table 5-13); caught by InvalidFieldsCase.psnHalfTheSpaceAwayIsADuplicate.
     */
    HALF_SPACE_PSN_AHEAD(breaks("5.6.5", "6.5.1")),

    /**
     * Tracks one MSN more than the declared {@code maxOutstandingMessages} ({@code >} where {@code >=} belongs), so an
     * MSN exactly that far ahead is not NACKed INVALID_REQUEST (Table 5-13); caught by
     * {@code MessageFieldsCase.msnTooFarAheadIsNacked}.
     */
    OUTSTANDING_LIMIT_OFF_BY_ONE(breaks("5.6.5")),

    /**
     * Places a packet whose message length disagrees with the earlier packets of its incomplete message, instead of
     * NACKing it INVALID_REQUEST (Table 5-13); caught by {@code MessageFieldsCase.disagreeingSegmentIsNacked}.
     */
    CONFLICTING_SEGMENT_PLACED(breaks("5.6.5")),

    /**
     * Reads a NACK code outside Table 9-1 as REMOTE_ACCESS and fails the work request, instead of dropping the NACK
     * (Table 5-13); caught by {@code MessageFieldsCase.unknownNackCodeIsDropped}.
     */
    UNKNOWN_NACK_CODE_AS_REMOTE_ACCESS(breaks("5.6.5")),

    /**
     * Checks the stream id before the PSN's place in the window: a duplicate or out-of-window packet naming a stream
     * the connection lacks gets NACK INVALID_REQUEST instead of a duplicate's ACK or PSN_OUT_OF_WINDOW (caught by
     * CheckOrderCase).
     */
    STREAM_CHECKED_BEFORE_WINDOW(breaks("5.6.6")),

    /**
     * Checks the remote key and the region's access before any message state: a stale retransmission, or a packet that
     * disagrees with its message's first, into an invalidated or foreign region gets NACK REMOTE_ACCESS instead of a
     * stale ACK or INVALID_REQUEST (caught by CheckOrderCase).
     */
    KEY_CHECKED_BEFORE_MESSAGE_STATE(breaks("5.6.6")),

    /**
     * Checks the bounds before the access flags: a WRITE past the end of a region without REMOTE_WRITE, or a READ past
     * the end of one without REMOTE_READ, gets NACK BOUNDS instead of REMOTE_ACCESS (caught by CheckOrderCase).
     */
    BOUNDS_CHECKED_BEFORE_ACCESS(breaks("5.6.6")),

    /**
     * Keeps a finished READ under its sink handle and compares a READ_RESPONSE's stream id, MSN and length with it
     * before asking whether the READ is still in progress: a late READ_RESPONSE of a finished READ that disagrees
     * with it gets NACK INVALID_REQUEST instead of a stale ACK (caught by CheckOrderCase).
     */
    READ_RESPONSE_AGREEMENT_BEFORE_HANDLE(breaks("5.6.6")),

    /**
     * Never compares a message's length with its declared maximum: a WRITE or READ_REQUEST longer than it gets BOUNDS
     * or REMOTE_ACCESS from the region checks, a SEND RECEIVER_NOT_READY or a length error, instead of NACK
     * MESSAGE_TOO_LONG (caught by MessageLimitCase).
     */
    MESSAGE_LENGTH_LIMIT_UNCHECKED(breaks("5.6.5", "5.6.6")),

    // ------------------------------------------------------------------ sections 6 and 7

    /** Starts every send path at PSN 0 instead of the connection's initial send PSN (caught by LossRecoveryCase). */
    INITIAL_PSN_IGNORED(breaks("6.1.1")),
    /** Compares a received PSN with the cumulative PSN as unsigned numbers, so PSNs after the wrap look like duplicates (caught by ReceiveStateCase). */
    UNSIGNED_PSN_COMPARE(breaks("6.1.2")),
    /** Lets 257 PSNs be outstanding on a path, sending cumulative + 256 (caught by SendWindowCase). */
    SEND_WINDOW_OFF_BY_ONE(breaks("6.1.3")),
    /** Rejects cumulative + 255 as beyond the receive window (caught by ReceiveStateCase.receiveWindowEdges). */
    RECEIVE_WINDOW_OFF_BY_ONE(breaks("6.1.4")),
    /** Reports only the first 64 bits of the SACK bitmap in ACKs (caught by ReceiveStateCase). */
    SACK_FIRST_WORD_ONLY(breaks("6.2.1")),
    /** Advances the cumulative PSN past the newest PSN received, over any gap before it (caught by ReceiveStateCase). */
    CUMULATIVE_OVER_GAP(breaks("6.2.2")),
    /** Drops every packet that is not the path's cumulative PSN but acknowledges it, as a go-back-N receiver with NAKs does (caught by ReceiveStateCase and PlacementOrderCase). */
    OUT_OF_ORDER_DROPPED_WITH_ACK(breaks("6.3.2")),
    /** Deems only the first hole of an ACK lost, leaving later holes to the timer (caught by LossRecoveryCase and the vector 6.3.1/dut-resends-every-hole-of-one-ack). */
    ONLY_FIRST_HOLE_LOST(breaks("6.3.1")),
    /**
     * Never deems the first hole of an ACK lost, only the holes after it, so a single lost PSN is resent only when the
     * path's timer expires (caught by {@code GapResendCase.theHoleIsResentBeforeAnyTimeoutCould} and
     * {@code SelectiveRetransmissionCase}).
     */
    FIRST_HOLE_LEFT_TO_THE_TIMER(breaks("6.3.1")),
    /** Resends a PSN on every ACK that shows it missing, however soon after its last retransmission (caught by FastRetransmitPaceCase). */
    GAP_RESENDS_ON_EVERY_ACK(breaks("6.4.3")),
    /** Resends every PSN from a lost one on, including PSNs the ACK reported received (caught by LossRecoveryCase and the vector 6.3.1/dut-resends-every-hole-of-one-ack). */
    GO_BACK_N(breaks("6.4.1")),
    /** Resends a packet without the RETRANSMISSION flag (caught by LossRecoveryCase). */
    RETRANSMIT_WITHOUT_FLAG(breaks("6.4.2")),
    /** Resends a packet under the next path's id (caught by LossRecoveryCase). */
    RETRANSMIT_ON_OTHER_PATH(breaks("6.4.2")),
    /** Resends a packet with the transmit timestamp of its previous transmission instead of a fresh one (caught by LossRecoveryCase). */
    RETRANSMIT_STALE_TIMESTAMP(breaks("6.4.2")),
    /** Places a duplicate of a PSN already marked in the SACK bitmap again (caught by DuplicateCase). */
    DUPLICATE_SACKED_PLACED(breaks("6.5.1")),
    /** Takes RTT samples from its own send time of the acknowledged PSN, ignoring the ACK's echoed timestamp (caught by TimerCase.rttEstimatePerPathFromEchoedTimestamps). */
    ECHO_IGNORED(breaks("6.6.1")),
    /**
     * Takes every RTT sample of a path as if it were the first (SRTT = R, RTTVAR = R / 2) instead of smoothing it into
     * the estimate as RFC 6298 does, so the RTO is three times the last sample, however many came before (mutation
     * report MTP-2). Caught by {@code RttSmoothingCase.rttVarianceDecaysOverEqualSamples} and
     * {@code RttSmoothingCase.smoothedRttRemembersALongSample}.
     */
    RTT_NOT_SMOOTHED(breaks("6.6.1")),
    /** Keeps doubling the RTO past the declared maximum RTO (caught by TimerCase). */
    RTO_NOT_CLAMPED_TO_MAX(breaks("6.6.2")),
    /**
     * Arms a path's retransmission timer when the connection, not the path, goes from nothing outstanding to one PSN:
     * a path that starts sending while another already waits keeps the deadline of its previous run, long past, and
     * resends at once (caught by {@code PathTimerCase.eachPathTimesItsOwnPsns}).
     */
    PATH_TIMER_ARMED_BY_CONNECTION_COUNT(breaks("6.6.2")),
    /**
     * Restarts the retransmission timer on an ACK that acknowledges a PSN for the first time only on path 0: on every
     * other path the timer keeps running from its first PSN, and expires early after a partial ACK (caught by
     * {@code PathTimerCase.eachPathTimesItsOwnPsns}).
     */
    PATH_TIMER_NOT_RESTARTED_BEYOND_PATH_0(breaks("6.6.2")),
    /** Does not double the RTO on an expiry without an ACK (caught by TimerCase). */
    NO_RTO_BACKOFF(breaks("6.6.3")),
    /** Keeps the backed-off RTO after an ACK that advances the cumulative PSN (caught by TimerCase.ackRestoresTheComputedRto). */
    BACKOFF_NOT_RESTORED(breaks("6.6.3")),
    /** Keeps a path's entropy when its timer expires (caught by TimerCase). */
    NO_REPATH_AFTER_RTO(breaks("6.6.4")),
    /** Keeps its timer in a 9-bit millisecond field: the RTO never exceeds 511 ms, whatever maximum RTO it is given, so a long-haul configuration's 1 s maximum is never reached (caught by LongHaulCase against the long-haul configuration). */
    RTO_CAPPED_AT_511_MS(breaks("6.6.5")),
    /** Arms its timer with the minimum RTO until the first RTT sample, the initial RTO register left unread: a metro path's first window is resent before its 10 ms ACK can come back (caught by LongHaulCase and the 6.6.5 vectors against the long-haul configuration; the standard configuration's timers, 2 and 10 ms under a 20 ms tolerance, hide it). */
    INITIAL_RTO_AT_MINIMUM(breaks("6.6.5")),
    /** Resends the outstanding PSNs of an unhealthy path under another path's id instead of keeping them on their own (caught by PathHealthCase). */
    UNHEALTHY_PATH_RESENDS_ELSEWHERE(breaks("6.7.1")),
    /** Never marks an unhealthy path healthy again, whatever ACKs arrive on it (caught by PathHealthCase). */
    UNHEALTHY_PATH_NOT_RECOVERED(breaks("6.7.2")),
    /** Never fails a connection whose peer has gone silent (caught by PathHealthCase.silentPeerFailsTheConnection). */
    NO_CONNECTION_TIMEOUT(breaks("6.7.3")),
    /**
     * Takes a packet for a known connection from a foreign source address as a sign of life before it drops it, so a
     * peer that has gone silent never fails the connection while anyone else sends to it (caught by
     * {@code ForeignLivenessCase.foreignPacketsDoNotKeepASilentConnectionAlive}).
     */
    FOREIGN_SOURCE_KEEPS_ALIVE(breaks("6.7.3", "11.2.2")),
    /** Fails a connection's work requests but leaves its posted receives pending: they never complete until the connection is destroyed (caught by FailedConnectionCase). */
    RECEIVES_KEPT_AFTER_FAILURE(breaks("6.7.4")),
    /** Goes on placing and acknowledging packets for a connection that has failed, as if the failure were only the sender's (caught by FailedConnectionCase). */
    FAILED_CONNECTION_STILL_RECEIVES(breaks("6.7.4")),
    /** Holds a packet that arrives after a gap of its path in a reorder buffer and places it only once the gap is filled, though its ACK already reports it (caught by PlacementOrderCase, and on 8.1.1 by the vector 8.1.1/acknowledged-only-once-placed). */
    REORDER_BUFFER(breaks("7.1.1", "7.1.2", "8.1.1")),
    /** Places every WRITE packet at the remote address, ignoring its message offset (caught by PlacementOrderCase). */
    WRITE_IGNORES_MESSAGE_OFFSET(breaks("7.2.1")),
    /**
     * Places the later packets of a WRITE at the remote address of the message's first packet to arrive plus their
     * offset, as a receiver that keeps RoCEv2's "address in the first packet only" model would, where the draft
     * places each packet by its own address (clause 7.1.1). Caught by {@code
     * MessageFieldsCase.eachPacketPlacedAtItsOwnAddress}.
     */
    WRITE_ADDRESS_FROM_FIRST_PACKET(breaks("7.1.1")),
    /**
     * Completes a zero-length READ as soon as its READ_REQUEST is acknowledged, since no byte is awaited, where clause
     * 7.4.2 completes it when its one READ_RESPONSE arrives. Caught by {@code
     * ReadCase.zeroLengthReadCompletesOnItsEmptyResponse}.
     */
    EMPTY_READ_COMPLETES_ON_ACK(breaks("7.4.2")),
    /** Delivers only the low 16 bits of a WRITE_WITH_IMMEDIATE's immediate (caught by ImmediateCase). */
    IMMEDIATE_TRUNCATED(breaks("7.2.2")),
    /** Matches a SEND to the receive indexed by its MSN instead of its RSN (caught by ReceiveMatchingCase). */
    SEND_MATCHED_BY_MSN(breaks("7.3.1")),
    /**
     * Grows a stream's ring of posted receives by copying each live receive to the slot it held in the old ring, not
     * to the one its RSN names under the new mask: once the ring has wrapped, a SEND finds an empty slot or another
     * receive's buffer (caught by {@code ReceiveMatchingCase.receivesPostedAfterWrapAroundStillMatch}).
     */
    RECEIVE_RING_GROWN_WITH_STALE_INDEX(breaks("7.3.1")),
    /**
     * Grows a stream's ring of messages in progress by copying each message to the slot it held in the old ring, not
     * to the one its MSN names under the new mask: once MSNs have wrapped the old ring, a message's packets find
     * another message's state, and its completion never comes (caught by
     * {@code ReceiveMatchingCase.receivesPostedAfterWrapAroundStillMatch}).
     */
    MESSAGE_RING_GROWN_WITH_STALE_INDEX(breaks("7.5.1")),
    /** Records the PSN of a SEND it refused with RECEIVER_NOT_READY as received, so the retry is a duplicate (caught by ReceiveMatchingCase). */
    RNR_RECORDS_PSN(breaks("7.3.2")),
    /** Checks a SEND's packet, not its message length, against the receive buffer (caught by ReceiveMatchingCase). */
    SEND_LENGTH_CHECKED_PER_PACKET(breaks("7.3.3")),
    /** Answers a READ with one byte fewer than requested (caught by ReadCase). */
    READ_RESPONSE_SHORT(breaks("7.4.1")),
    /** Completes a READ when the response with the last offset arrives, not when every byte has (caught by ReadCase). */
    READ_COMPLETES_ON_LAST_SEGMENT(breaks("7.4.2")),
    /** Executes a duplicate READ_REQUEST again (caught by DuplicateCase). */
    READ_REQUEST_REEXECUTED(breaks("7.4.3")),
    /**
     * Gives a new READ the lowest sink handle no READ in progress holds, so a handle comes back once its READ finished
     * (caught by SinkHandleCase).
     */
    SINK_HANDLE_REUSED(breaks("7.4.4")),
    /** Never completes a received zero-length message (caught by CompletionCase and ImmediateCase). */
    ZERO_LENGTH_NOT_COMPLETED(breaks("7.5.1")),
    /** Completes the sender's work requests as they are acknowledged, not in MSN order (caught by CompletionCase). */
    COMPLETIONS_OUT_OF_MSN_ORDER(breaks("7.5.2")),
    /** Holds back the sender's completions of a stream while any other stream has an incomplete message (caught by CompletionCase). */
    HOL_BLOCKING_ACROSS_STREAMS(breaks("7.5.3")),
    /** Completes a WRITE or SEND once its last packet is sent, before its PSNs are acknowledged (caught by LossRecoveryCase). */
    SENDER_COMPLETES_BEFORE_ACK(breaks("7.5.4")),
    /** Treats a packet of an already delivered message as a new message and places it (caught by DuplicateCase). */
    STALE_PLACED(breaks("7.5.6", "7.5.5")),
    /** Drops a stale packet without recording or acknowledging it (caught by DuplicateCase). */
    STALE_NOT_ACKED(breaks("7.5.6")),
    /** Numbers the messages it sends from one counter for all streams instead of one per stream (caught by CompletionCase). */
    MSN_PER_CONNECTION(breaks("7.5.7")),
    /** Delivers an error completion at once, ahead of earlier messages of its stream (caught by CompletionCase). */
    ERROR_COMPLETION_OUT_OF_ORDER(breaks("7.5.8")),
    /** Orders receive completions only among messages that raise one, so a SEND's completes ahead of an incomplete earlier WRITE of its stream (caught by CompletionOrderCase.sendWaitsForEarlierWrite). */
    RECEIVE_COMPLETION_OVERTAKES_SILENT_MESSAGES(breaks("7.5.9")),

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

    /**
     * Reports {@code hello}'s ACK delay in microseconds under the name {@code ackDelayNs} (a unit slip), so
     * {@code hello} and the declaration file declare different timers. Caught by
     * {@code DeclarationAgreementCase.helloAndProfileDeclareTheSame}.
     */
    HELLO_ACK_DELAY_IN_MICROSECONDS(breaks("12.1.5")),

    /**
     * Reports {@code hello}'s link rate in kbit/s under the name {@code linkRateBitsPerSecond} (a unit slip). Caught
     * by {@code DeclarationAgreementCase.congestionParametersAreDeclared}.
     */
    HELLO_LINK_RATE_IN_KBPS(breaks("12.1.6")),

    /** Leaves the rx_unexpected_source counter out of {@code read_counters}. Caught by {@code DeclarationsCase.everyCounterIsObservable}. */
    COUNTER_MISSING(breaks("12.1.4")),

    /** Always reports a CE count of 0. Caught by {@code CongestionCase.ceCountPerPath}. */
    CE_COUNT_NEVER_SET(breaks("8.2.2")),

    /**
     * Counts CE marks per connection instead of per path: a mark on one path shows in the next ACK of every path.
     * Caught by {@code CongestionCase.ceCountPerPath}.
     */
    CE_COUNTED_PER_CONNECTION(breaks("8.2.2")),

    /** Leaves the CE mark of a PROBE out of the CE count. Caught by {@code CeCountCoverageCase}. */
    PROBE_CE_NOT_COUNTED(breaks("8.2.2")),

    /**
     * Counts a CE mark only when the packet is placed: duplicates, stale, out-of-window and NACKed packets are left out.
     * Caught by {@code CeCountCoverageCase}.
     */
    CE_COUNTED_ONLY_WHEN_PLACED(breaks("8.2.2")),

    /** Starts a new CE count when it sends a NACK, so the marks since the last ACK are lost. Caught by {@code CeCountCoverageCase}. */
    NACK_RESETS_CE_COUNT(breaks("8.2.2")),

    /** Sends the ACK of a duplicate with rate hint 0. Caught by {@code CongestionCase.rateHintInEveryAck}. */
    RATE_HINT_MISSING_FROM_DUPLICATE_ACKS(breaks("8.2.3")),

    /** Splits its link among every connection it has, idle ones too, not among those that sent data in its active window. Caught by {@code FairShareCase}. */
    FAIR_SHARE_COUNTS_IDLE_CONNECTIONS(breaks("8.2.4")),

    /** Counts every connection that ever sent it data in the fair share: a sender that went silent is never forgotten. Caught by {@code FairShareCase}. */
    FAIR_SHARE_NEVER_FORGETS(breaks("8.2.4")),

    /** Applies the target utilisation to a lone sender too, which 8.2.4 gives the whole link rate. Caught by {@code FairShareCase}. */
    FAIR_SHARE_DISCOUNTS_A_LONE_SENDER(breaks("8.2.4")),

    /** Ignores the rate hint of ACKs: paces at line rate only. Caught by {@code CongestionCase.sendingRateKeepsToTheHint}. */
    RATE_HINT_IGNORED(breaks("10.1.4")),

    /** Lets CE decreases take its windows below the rate hint times the smoothed RTT, starving a sender the receiver already paces to its share. Caught by {@code RateHintFloorCase}. */
    RATE_HINT_FLOOR_IGNORED(breaks("10.1.5")),

    /**
     * Reads the rate hint as Mbyte/s instead of Mbit/s, sending eight times faster than hinted. Caught by
     * {@code CongestionCase.sendingRateKeepsToTheHint}.
     */
    RATE_HINT_READ_AS_BYTES(breaks("10.1.4")),

    /**
     * Never decreases a congestion window (path or connection) on CE reports. Caught by {@code CongestionCase.perPathAimd}
     * and {@code ConnectionWindowCase}.
     */
    NO_MULTIPLICATIVE_DECREASE(breaks("10.1.1", "10.1.2")),

    /**
     * Without the congestion profile, still grows its path and connection windows by additive increase past their
     * declared first values, as a congestion sender would. Caught by
     * {@code WindowsWithoutCongestionCase.windowsStayAtTheirDeclaredValues} against the core configuration.
     */
    WINDOWS_GROW_WITHOUT_CONGESTION(breaks("10.1.6")),

    /**
     * Declares a maximum connection window in hello but lets the additive increase carry the window past it. Caught by
     * {@code MaximumConnectionWindowCase.connectionWindowStaysAtOrBelowItsDeclaredMaximum} against the reference with a
     * declared maximum.
     */
    MAXIMUM_CONNECTION_WINDOW_EXCEEDED(breaks("10.1.2")),

    /**
     * Never grows a window, of a path or of the connection, by additive increase: a CE report still decreases it and a
     * timeout still collapses it, but no ACK without CE adds the 1 / W per packet of clause 10.1.1 (mutation report
     * MTP-1). Caught by {@code CongestionCase.windowsGrowAdditivelyWithoutCe}.
     */
    NO_ADDITIVE_INCREASE(breaks("10.1.1", "10.1.2")),

    /** Grows a window by one packet per acknowledged packet (exponentially) instead of one per window. Caught by {@code CongestionCase.perPathAimd}. */
    WINDOW_GROWTH_EXPONENTIAL(breaks("10.1.1")),

    /**
     * Decreases a window (path or connection) on every ACK with CE, not at most once per smoothed RTT. Caught by
     * {@code CongestionCase.perPathAimd} and {@code ConnectionWindowCase}.
     */
    DECREASE_ON_EVERY_CE_ACK(breaks("10.1.1", "10.1.2")),

    /**
     * Applies a CE report on one path to the windows of every path. Caught by {@code CongestionCase.perPathAimd}.
     */
    DECREASE_APPLIED_TO_ALL_PATHS(breaks("10.1.1")),

    /**
     * Sends whenever a path window allows, never checking the connection window. Caught by
     * {@code ConnectionWindowCase.connectionWindowBindsWhateverThePathsAllow}.
     */
    CONNECTION_WINDOW_IGNORED(breaks("10.1.2")),

    /**
     * Decreases the path windows on CE reports but grows the connection window on them as if unmarked. Caught by
     * {@code ConnectionWindowCase.connectionWindowBindsWhateverThePathsAllow}.
     */
    CONNECTION_WINDOW_BLIND_TO_CE(breaks("10.1.2")),

    /**
     * Spaces the connection window's decreases by the smoothed RTT of the path the marked ACK came on, not by the
     * connection's (the smallest among its healthy paths', section 10), so marks arriving on a slow path decrease the
     * connection window too seldom. Caught by {@code ConnectionDecreaseSpacingCase}.
     */
    CONNECTION_DECREASE_SPACED_BY_MARKED_PATH(breaks("10.1.2")),

    /**
     * Takes the connection's smoothed RTT as the ACKing path's, as if no path had an RTT sample, and so reports no
     * {@code srttNs} in {@code path_status} (optional there, so legal alone): clause 10.1.2's decreases spaced by the
     * marked path, judged by the wire's bounds alone (mutation report MTP-3). Caught by {@code
     * ConnectionDecreaseSpacingCase}.
     */
    CONNECTION_SRTT_OF_ACKING_PATH(breaks("10.1.2")),

    /** Puts every new PSN on path 0 while it has window, leaving the other paths idle. Caught by {@code CongestionCase.spraysOverEveryHealthyPath}. */
    SPRAY_FIRST_PATH_ONLY(breaks("10.2.1")),

    /** Sprays in plain round robin over the paths with any room, blind to how much free window each has. Caught by {@code WindowWeightedSprayingCase}. */
    SPRAY_ROUND_ROBIN_ONLY(breaks("10.2.2")),

    /**
     * Moves the round-robin pointer only after a tie, so that after a path won on free window the next tie goes to
     * the path after the previous tie's, not after the path just chosen. Caught by {@code
     * WindowWeightedSprayingCase}.
     */
    SPRAY_POINTER_MOVES_ON_TIES_ONLY(breaks("10.2.2")),

    /**
     * Declares its reorder tolerance and deems every gap lost at once all the same (clause 6.3.3), resending what
     * was only reordered. Caught by {@code ReorderToleranceCase} against the reference's reorder configuration.
     */
    REORDER_TOLERANCE_IGNORED(breaks("6.3.3")),

    /**
     * Counts the reorder time from the missing PSN's transmission rather than from the first ACK that shows the gap
     * (clause 6.3.3), so a gap reported late is deemed lost at once. Caught by {@code ReorderToleranceCase} against
     * the reference's reorder configuration.
     */
    REORDER_TIME_FROM_SEND(breaks("6.3.3")),

    /**
     * Holds a gap for the declared reorder count but never lets the declared reorder time run out (clause 6.3.3: the
     * PSN is lost as soon as either condition holds), so a gap with fewer later PSNs reported than declared waits for
     * the retransmission timer. Caught by {@code ReorderToleranceCase.gapIsLostOnceTheDeclaredTimePasses} against the
     * reference's reorder configuration.
     */
    REORDER_TIME_NEVER_PASSES(breaks("6.3.3")),

    /** Leaves the path's congestion window as it was on a retransmission timeout, so new PSNs go on sending into a path that just lost everything. Caught by {@code TimeoutWindowCase}. */
    TIMEOUT_KEEPS_WINDOW(breaks("10.1.3")),

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
     * Reads ACK_REQUEST on an ACK too and answers such an ACK with an ACK of its path, which clause 8.1.3 forbids
     * since clause 5.5.1 says so. Caught by {@code AcknowledgementCase.ackRequestOnAckOrNackIsNotAnswered}.
     */
    ACK_REQUEST_ON_ACK_ANSWERED(breaks("8.1.3")),

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
    FOREIGN_SOURCE_NACKED(breaks("11.2.2")),

    /**
     * Handles NACK RECEIVER_NOT_READY as fatal: fails the work request instead of retrying. Caught by
     * {@code NackCase.receiverNotReadyIsRetried}.
     */
    RECEIVER_NOT_READY_FATAL(breaks("9.1.2")),

    /**
     * Checks LOCAL_WRITE for READ sinks only: a receive posted into a region without it is accepted (by the agent
     * and the transport alike), and a SEND would be placed there. Caught by
     * {@code CompletionOrderCase.receiveNeedsLocalWrite}.
     */
    RECEIVE_WITHOUT_LOCAL_WRITE(breaks("11.1.6")),

    /**
     * Retries a RECEIVER_NOT_READY packet at once, ignoring the retry-after. Caught by
     * {@code NackCase.receiverNotReadyIsRetried}.
     */
    RETRY_AFTER_IGNORED(breaks("9.1.2", "9.1.9")),

    /**
     * Deems a PSN waiting for its RECEIVER_NOT_READY retry lost when an ACK shows it missing, and resends it before
     * its retry-after. Caught by {@code RetryWaitCase}.
     */
    WAITING_PSN_LOST_ON_GAP(breaks("9.1.9", "6.3.1")),

    /**
     * Resends a PSN waiting for its RECEIVER_NOT_READY retry when the path's timer expires, before its retry-after.
     * Caught by {@code RetryWaitCase}.
     */
    WAITING_PSN_RESENT_ON_TIMEOUT(breaks("9.1.9", "6.6.2")),

    /**
     * Puts a fixed retry-after of 1 microsecond in every NACK RECEIVER_NOT_READY instead of its declared retry
     * interval. Caught by {@code NackOrderCase.receiverNotReadyCarriesRetryAndIsNotAcknowledged}.
     */
    RNR_RETRY_HARD_CODED(breaks("9.1.9")),

    /**
     * Reports its receiver-not-ready retry interval in nanoseconds under {@code hello}'s microsecond name, so hello
     * and the declaration file disagree. Caught by {@code DeclarationAgreementCase.helloAndProfileDeclareTheSame}.
     */
    HELLO_RNR_RETRY_IN_NANOSECONDS(breaks("12.1.5")),

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
     * Places a READ_RESPONSE whose stream id, MSN or message length differ from the READ its sink handle names, where
     * Table 5-13 NACKs it INVALID_REQUEST. Caught by {@code InvalidFieldsCase.readResponseDisagreeingWithItsReadIsRefused}.
     */
    RESPONSE_FIELDS_UNCHECKED(breaks("5.6.5")),

    /**
     * Bounds-checks each WRITE packet's own bytes instead of the whole message range, so the in-bounds packets of an
     * out-of-bounds message are placed. Caught by {@code MemoryProtectionCase.writeBoundsCoverTheWholeMessage}.
     */
    BOUNDS_CHECKED_PER_PACKET(breaks("11.1.3")),
    /** Skips the bounds check of a zero-length message, as a check that only looks at the bytes it places would: a zero-length WRITE or READ anywhere, even outside its region, is accepted (caught by EmptyRangeCase). */
    EMPTY_RANGE_UNCHECKED(breaks("11.1.3")),
    /**
     * Computes a WRITE's offset from its region's base in 32 bits, so a message 4 GiB (or any multiple of it) above
     * the region wraps back inside it and is placed there (caught by
     * {@code HighAddressBoundsCase.writeFarAboveTheBaseIsRefused}).
     */
    BOUNDS_OFFSET_IN_32_BITS(breaks("11.1.3")),

    /**
     * Keeps an invalidated region's key in the key table, so remote WRITEs and READs still reach the old memory.
     * Caught by {@code MemoryProtectionCase.invalidatedKeyIsRefused}.
     */
    INVALIDATED_KEY_STILL_VALID(breaks("11.1.4")),

    /**
     * Fills and completes a posted receive whose buffer's region was invalidated. Caught by
     * {@code MemoryProtectionCase.invalidatedReceiveBufferIsNotFilled}.
     */
    INVALIDATION_MISSES_POSTED_RECEIVES(breaks("11.1.4", "11.1.7")),

    /**
     * Keeps sending the queued packets of a WRITE whose source region was invalidated. Caught by
     * {@code MemoryProtectionCase.invalidatedSourceIsNotSent}.
     */
    INVALIDATION_MISSES_QUEUED_SENDS(breaks("11.1.4")),

    /**
     * Keeps sending a READ_RESPONSE from a region invalidated while the response was still partly unsent, reading the
     * region for the network after its invalidation. Caught by
     * {@code MemoryProtectionCase.invalidatedReadSourceIsNotSent}.
     */
    INVALIDATED_RESPONSE_SENT(breaks("11.1.4")),

    /**
     * Completes a WRITE or SEND whose source was invalidated after its packets went out with SUCCESS once they are
     * acknowledged. Caught by {@code InvalidatedBufferCase.sourceInvalidatedBeforeItsAck}.
     */
    INVALIDATED_SOURCE_COMPLETES_SUCCESS(breaks("11.1.7")),

    /**
     * Resends a PSN of a WRITE whose source was invalidated, reading the region again, instead of failing the
     * connection. Caught by {@code InvalidatedBufferCase.resendOfAnInvalidatedSourceFailsTheConnection}.
     */
    INVALIDATED_SOURCE_RESENT(breaks("11.1.7", "11.1.4")),

    /**
     * Completes a READ whose sink was invalidated with SUCCESS when a READ_RESPONSE arrives, though nothing was placed.
     * Caught by {@code InvalidatedBufferCase.sinkInvalidatedBeforeItsData}.
     */
    INVALIDATED_SINK_COMPLETES_SUCCESS(breaks("11.1.7")),

    /**
     * Places a SEND longer than its receive buffer at the buffer's address + offset, past the buffer's end, instead of
     * refusing it. Caught by {@code MemoryProtectionCase.sendStaysInsideItsBuffer}.
     */
    SEND_OVERRUNS_RECEIVE_BUFFER(breaks("11.1.5", "7.3.3")),

    /**
     * Answers every data packet and READ_REQUEST for an unknown connection from a connection's peer with NACK
     * UNKNOWN_CONNECTION, with no rate limit: a reflector. Caught by
     * {@code ConnectionProtectionCase.unknownConnectionNacksAreRateLimited}.
     */
    UNKNOWN_CONNECTION_NACK_FLOOD(breaks("11.2.1")),

    /**
     * Fills its NACK UNKNOWN_CONNECTION from its own connection to the packet's source (that connection's peer id,
     * path 0, stream and MSN 0, the path's cumulative PSN) instead of echoing the rejected packet. Caught by
     * {@code UnknownConnectionNackCase.answerEchoesTheRejectedPacket}.
     */
    UNKNOWN_CONNECTION_NACK_WITH_OWN_IDS(breaks("11.2.3")),

    /**
     * Looks a NACK UNKNOWN_CONNECTION up by its destination connection id as a local id, as for any other packet, so
     * an answer that echoes the peer's id (the only one the peer knew) fails nothing, and one that happens to carry
     * the local id fails the connection. Caught by {@code UnknownConnectionNackCase.echoedNackFailsTheConnection}.
     */
    UNKNOWN_CONNECTION_NACK_MATCHED_BY_LOCAL_ID(breaks("9.1.10", "9.1.2")),

    /**
     * Fails a connection on a NACK UNKNOWN_CONNECTION that echoes its ids but names a PSN the connection has not got
     * outstanding (a stale or forged answer). Caught by {@code UnknownConnectionNackCase.unmatchedNacksChangeNothing}.
     */
    UNKNOWN_CONNECTION_NACK_MATCHED_WITHOUT_PSN(breaks("9.1.10")),

    /**
     * Accepts packets for a known connection from any source address. Caught by
     * {@code ConnectionProtectionCase.foreignSourceIsDroppedForEveryOpcode}.
     */
    FOREIGN_SOURCE_ACCEPTED(breaks("11.2.2")),

    /**
     * Reads every received packet's ECN field as Not-ECT, as a socket device that never asked for the TOS byte
     * ({@code IP_RECVTOS}) does, yet claims the congestion profile: CE marks are neither counted nor reported. Caught
     * by {@code ReceivedCeCase.acksCountReceivedCeMarks}.
     */
    RECEIVED_ECN_IGNORED(breaks("8.2.5", "8.2.2")),

    /**
     * Queues a NACK behind the ACK of its packet: it leaves after the rejected PSN is recorded (so its cumulative PSN
     * covers that PSN) and after an ACK that reports it. Caught by {@code NackOrderCase.nackThenAck}.
     */
    NACK_QUEUED_BEHIND_ACK(breaks("9.1.6")),

    /**
     * Takes a NACK as the rejected packet's answer: records its PSN but schedules no ACK for it, even when the packet
     * asked for one. Caught by {@code NackOrderCase.nackThenAck}.
     */
    NO_ACK_AFTER_NACK(breaks("9.1.8")),

    /**
     * On a NACK with a final code, counts the rejected PSN as acknowledged before failing its work request, so a
     * message whose last PSN that is completes with SUCCESS. Caught by {@code NackedWorkRequestCase}.
     */
    NACKED_PSN_ACKNOWLEDGED_FIRST(breaks("9.1.7", "9.1.2")),

    /**
     * Takes a NACK by its PSN alone: one naming an outstanding PSN fails that PSN's message whatever stream id and MSN
     * it carries, where Table 5-13 drops it and counts {@code rx_invalid_field}. Caught by
     * {@code LateAnswersCase.nackNamingAnotherMessageChangesNothing}.
     */
    NACK_FIELDS_UNCHECKED(breaks("5.6.5")),

    /**
     * Takes a NACK whose PSN is no longer outstanding for the oldest unfinished message of its stream, whatever its
     * MSN (a per-stream queue that fails its head): a late NACK of a finished message fails the next one, where Table
     * 5-13 drops it as stale. Caught by {@code LateAnswersCase.lateNackOfAFinishedMessageChangesNothing}.
     */
    STALE_NACK_FAILS_STREAM_HEAD(breaks("5.6.5")),

    /**
     * Counts a PSN_OUT_OF_WINDOW NACK whose PSN was sent and is no longer outstanding under {@code rx_invalid_field},
     * as if the PSN had never been sent, where Table 5-13 counts it stale (found by the JaCoCo list of transport code
     * no case ran: the stale branch of a RETRANSMIT NACK). Caught by {@code
     * LateAnswersCase.lateNackOfAFinishedMessageChangesNothing}.
     */
    STALE_RETRANSMIT_NACK_COUNTED_INVALID(breaks("5.6.5")),

    /**
     * Takes a NACK whose PSN an ACK has already acknowledged as stale even while the message is unfinished (its other
     * PSNs unacknowledged), so the message completes SUCCESS once ACKs cover the rest; clause 9.1.7 fails it whether
     * the NACK's PSN is outstanding or was acknowledged by an ACK that overtook the NACK. Caught by
     * {@code NackedWorkRequestCase.aNackOvertakenByTheAckOfItsPsnFailsTheUnfinishedWrite}.
     */
    OVERTAKEN_NACK_IGNORED(breaks("9.1.7")),

    /**
     * Keeps sending the packets of a READ_RESPONSE not yet sent after a fatal NACK named one of its PSNs, where clause
     * 9.1.7 stops the response. Caught by {@code NackedWorkRequestCase.aFatalNackOfAReadResponseStopsTheRest}.
     */
    FAILED_RESPONSE_SENT_ON(breaks("9.1.7")),

    /**
     * Measures how far an ACK's cumulative PSN lies from the oldest unacknowledged PSN without asking which way, so a
     * reordered ACK (cumulative PSN before the path's) looks like one for PSNs never sent: dropped whole and counted
     * {@code rx_invalid_field}, where Table 5-13 makes it no error. Caught by
     * {@code LateAnswersCase.reorderedAckIsNoError}.
     */
    REORDERED_ACK_COUNTED_INVALID(breaks("5.6.5")),

    /**
     * Compares PSNs as signed 32-bit differences, so an ACK cumulative PSN or a NACK psn exactly 2^31 from the path's
     * next PSN counts as one in the past: the ACK as a late one (no error, not counted) when PSNs are outstanding,
     * the NACK as a stale one ({@code rx_stale}), where Table 5-13 makes both PSNs never sent
     * ({@code rx_invalid_field}). Caught by {@code InvalidFieldsCase.halfWayPsnsWereNeverSent}.
     */
    HALF_WAY_PSN_TAKEN_AS_OLD(breaks("5.6.5")),

    /**
     * Handles READ_REQUEST and WRITE_WITH_IMMEDIATE as a device claiming read and immediate does, although it claims
     * neither (the reference's core configuration): it answers a READ and places an immediate WRITE, where clause 5.6.7
     * requires NACK INVALID_REQUEST. Caught by {@code UnclaimedOpcodesCase}.
     */
    UNCLAIMED_OPCODES_HANDLED(breaks("5.6.7")),

    /**
     * Puts its CE count and fair-share rate hint in its ACKs although it does not claim congestion (the reference's
     * core configuration), where clause 8.2.6 requires CE count 0 and no limit. Caught by
     * {@code WithoutCongestionCase.acksCarryNoCongestionSignals}.
     */
    CONGESTION_REPORTED_UNCLAIMED(breaks("8.2.6")),

    /**
     * Resends a PSN NACKed PSN_OUT_OF_WINDOW at once, as if a gap had shown it lost, instead of waiting for an ACK that
     * moves the receive window or for the path's timer (clause 9.1.11): the receiver, whose window is full, drops it
     * again. Caught by {@code OutOfWindowRetryCase}.
     */
    OUT_OF_WINDOW_RESENT_AT_ONCE(breaks("9.1.11")),

    /**
     * Reads a NACK code as valid only for the opcodes that can earn it: a RECEIVER_NOT_READY naming a PSN that does
     * not carry a SEND, or a BOUNDS naming one that carries a SEND, is dropped and counted under
     * {@code rx_invalid_field}, where clause 9.1.2 says the sender takes the code's action whatever
     * the opcode. Caught by {@code NackedWorkRequestCase.boundsFailsASend} and
     * {@code RetryWaitCase.aWriteWaitsLikeASend}.
     */
    NACK_CODE_CHECKED_AGAINST_OPCODE(breaks("9.1.2")),

    /**
     * Drops a NACK RECEIVER_NOT_READY whose retry-after is 0 as malformed ({@code rx_invalid_field}), where clause
     * 9.1.9 makes it valid: the sender may resend at once. The PSN comes again only on the path's
     * timer. Caught by {@code RetryWaitCase.aRetryAfterOfZeroIsActedOn}.
     */
    ZERO_RETRY_AFTER_DROPPED(breaks("9.1.9")),

    /**
     * Rejects a later packet of a message it rejected (the last one per connection) again with the same code, as the
     * other reading of open point 21 would, where clause 7.5.6 makes a message rejected at step 7
     * or 8 of clause 5.6.6 finished, so that a later packet of it is stale: acknowledged and counted under
     * {@code rx_stale}. Caught by {@code FinishedMessageCase}.
     */
    REJECTED_MESSAGE_REJECTED_AGAIN(breaks("7.5.6")),

    /**
     * Completes every unfinished work request of a failed connection with the failure's status, ignoring Table 6-1:
     * a WRITE whose source was invalidated gets REMOTE_UNKNOWN_CONNECTION or TRANSPORT_TIMEOUT
     * instead of LOCAL_PROTECTION_ERROR, and when the device fails the connection for one invalidated source, every
     * other work request gets LOCAL_PROTECTION_ERROR instead of FLUSHED. Caught by {@code FailureStatusCase}.
     */
    FAILURE_STATUS_UNIFORM(breaks("6.7.4", "11.1.7")),

    /**
     * Drops a WRITE or SEND whose source was invalidated with packets still unsent, completes it
     * LOCAL_PROTECTION_ERROR and carries on with the next message of its stream, where clause 11.1.7
     * fails the connection: the peer never sees the dropped MSN finished and holds back the stream for ever. Caught by
     * {@code FailureStatusCase.unsentSourceFailsTheConnection}.
     */
    INVALIDATED_UNSENT_SKIPPED(breaks("11.1.7")),

    /**
     * Matches a NACK whose PSN is no longer outstanding by its stream id and MSN alone (an earlier reading of the draft),
     * where clause 9.1.7 matches it to the message that PSN carried: a late NACK of a READ_RESPONSE,
     * whose MSN is in the requester's space, fails this device's own WRITE with the same stream and MSN. Caught by
     * {@code NackedWorkRequestCase.aLateNackOfAReadResponseFailsNoWorkRequest}.
     */
    NACK_MATCHED_BY_MSN_ALONE(breaks("9.1.7")),

    /**
     * Takes a late ACK (Table 5-13: its cumulative PSN before the path's oldest unacknowledged PSN, acknowledging
     * nothing new) as a new one: its rate hint replaces the newer ACK's, it marks the path healthy and ends the
     * backoff, where the draft uses only its echo and CE count. Caught by
     * {@code CongestionCase.aLateAckDoesNotReplaceTheHint}.
     */
    LATE_ACK_TAKEN_AS_NEW(breaks("10.1.4")),

    /**
     * Sends its PROBEs not ECN-capable, where clause 4.1.7 marks them as data: a congested queue then
     * drops a probe it would have marked. Caught by {@code PathHealthCase.unhealthyPathIsAvoidedProbedAndRecovered}.
     */
    PROBE_NOT_ECT(breaks("4.1.7")),

    /**
     * Runs the connection timeout only while PSNs are outstanding, so a READ whose request was acknowledged but whose
     * data never comes waits for ever, where clause 6.7.3 fails the connection. Caught by
     * {@code PathHealthCase.aReadWaitingForItsDataTimesOut}.
     */
    READ_WAIT_NEVER_TIMES_OUT(breaks("6.7.3")),

    /**
     * Re-arms its tail-loss probe each time it sends one, so a silent path draws a PROBE every half smoothed RTT until
     * its timer expires, where clause 6.3.4 allows one until the path answers or the timer expires.
     * Caught by {@code TailLossProbeCase.aSilentTailDrawsOneProbePerTimerRun}.
     */
    TAIL_PROBE_REPEATED(breaks("6.3.4")),

    /**
     * Resends what its tail-loss probe's ACK shows missing from the source port it was lost on, where clause 6.3.4
     * re-paths first, as after a timeout. Caught by
     * {@code TailLossProbeCase.whatTheProbeShowsMissingIsResentFromANewPort}.
     */
    TAIL_PROBE_RESENT_ON_OLD_ENTROPY(breaks("6.3.4")),

    /**
     * Lets the RTT sample of a late ACK (Table 5-13) restore the computed RTO, so one ACK the network held back ends a
     * path's backoff, where clause 6.6.3 lets only an ACK that acknowledges something new do so.
     * Caught by {@code LateAckCase.aLateAckDoesNotEndTheBackoff}.
     */
    LATE_ACK_ENDS_BACKOFF(breaks("6.6.3")),

    /**
     * Resets a path's count of consecutive expiries on a late ACK, so an ACK the network held back postpones the
     * path's failover by a whole threshold of expiries, where clause 6.6.3 resets it only on an ACK
     * that is not late or a NACK. Caught by {@code LateAckCase.aLateAckDoesNotResetTheExpiryCount}.
     */
    LATE_ACK_RESETS_EXPIRY_COUNT(breaks("6.6.3")),

    /**
     * Marks an unhealthy path healthy on a late ACK, which the network may have held back from before the path failed,
     * where clause 6.7.2 needs an ACK that is not late or a NACK. Caught by
     * {@code LateAckCase.aLateAckDoesNotHealAPath}.
     */
    LATE_ACK_HEALS_PATH(breaks("6.7.2")),

    /**
     * Ignores the peer's maximum outstanding messages given at setup and starts every message its windows allow, so
     * a peer with a small limit NACKs INVALID_REQUEST what lies beyond it, where clause 7.5.10 makes
     * the message wait. Caught by {@code PeerMessageLimitCase.theDutKeepsBelowThePeersLimit}.
     */
    PEER_MESSAGE_LIMIT_IGNORED(breaks("7.5.10")),

    /**
     * Takes a message for finished, under the peer's maximum outstanding messages, only once every packet of it is
     * acknowledged, never when a NACK whose code fails the work request names one, so a message the limit past a failed
     * one whose unsent rest the NACK stopped, and whose completion waits behind a READ's data, is held until the
     * connection times out, where clause 7.5.10 sends it once the NACK came. Caught by
     * {@code PeerMessageLimitCase.aNackThatFailsAMessageBehindAReadReleasesTheOneWaiting}.
     */
    PEER_MESSAGE_LIMIT_BLIND_TO_NACKS(breaks("7.5.10")),

    /**
     * Accepts any local address at setup and still sends from its own, where clause 4.2.3 makes a
     * device refuse an address it cannot send from. Caught by {@code LocalAddressCase.everyPacketLeavesFromTheLocalAddress}.
     */
    LOCAL_ADDRESS_UNCHECKED(breaks("4.2.3")),

    /**
     * Merges the "decrease at most once per smoothed RTT" branch with its else: a CE report that comes within one
     * smoothed RTT of a decrease grows the window (path and connection) as an unmarked ACK would, where clause 10.1.1
     * says an ACK reporting CE never increases it. Caught by
     * {@code CeWithinOneSrttCase.ceReportsWithinOneSrttNeitherDecreaseNorGrowTheWindow}.
     */
    CE_REPORT_GROWS_WINDOW_WITHIN_SRTT(breaks("10.1.1", "10.1.2")),

    /**
     * Restarts the once-per-smoothed-RTT spacing of decreases (path and connection) at every CE report, not only at a
     * decrease, so under CE reports that keep coming within one smoothed RTT of each other a window decreases once and
     * never again, where clause 10.1.1 decreases it again at the first report more than one smoothed RTT after the
     * last decrease. Caught by {@code CeWithinOneSrttCase.aCeReportAfterOneSrttDecreasesTheWindowAgain}.
     */
    DECREASE_SPACED_FROM_LAST_CE_REPORT(breaks("10.1.1", "10.1.2")),

    /**
     * On destroy flushes only the work requests that have put a packet on the wire, and frees the ones still queued (a
     * WRITE posted behind a long one) without a completion, where clause 4.2.2 completes every work request with a
     * flush error. Caught by {@code TeardownInProgressCase.everyWorkRequestInProgressIsFlushed}.
     */
    TEARDOWN_FORGETS_UNSTARTED_WORK(breaks("4.2.2")),

    /**
     * On destroy forgets a READ whose request was acknowledged and whose data has not come, which waits in the table
     * of awaited responses rather than among the messages being sent, where clause 4.2.2 completes it with a flush
     * error. Caught by {@code TeardownInProgressCase.everyWorkRequestInProgressIsFlushed}.
     */
    TEARDOWN_FORGETS_WAITING_READ(breaks("4.2.2")),

    /**
     * When a connection fails, flushes only the receives no SEND has reached: one that a SEND has partly filled is
     * taken as consumed and never completes, where clause 6.7.4 makes it complete FLUSHED. Caught by
     * {@code FailedConnectionCase.partlyFilledReceiveIsFlushed}.
     */
    PARTLY_FILLED_RECEIVE_NEVER_FLUSHED(breaks("6.7.4")),

    /**
     * Fails the connection when the source of a work request wholly sent but not yet acknowledged is invalidated,
     * where clause 11.1.7 fails it only if a PSN of that source must be resent. Caught by
     * {@code InvalidatedBufferCase.whollySentSourceFailsNoConnection}.
     */
    WHOLLY_SENT_SOURCE_FAILS_CONNECTION(breaks("11.1.7")),

    /**
     * Completes a work request LOCAL_PROTECTION_ERROR as soon as its wholly sent source is invalidated, before ACKs
     * have acknowledged its PSNs, where clause 11.1.7 completes it once they have. Caught by
     * {@code InvalidatedBufferCase.whollySentSourceFailsNoConnection}.
     */
    WHOLLY_SENT_SOURCE_COMPLETES_AT_INVALIDATION(breaks("11.1.7")),

    /**
     * Takes a message for finished only once its completion is delivered, so a NACK of a WRITE whose every PSN was
     * acknowledged, while its completion waits for an earlier message of its stream, fails it, where clause 9.1.7 makes
     * that NACK late and stale. Caught by {@code NackedWorkRequestCase.finishedBeforeItsCompletionIsDelivered}.
     */
    FINISHED_ONLY_AT_DELIVERY(breaks("9.1.7")),

    /**
     * Counts an arriving READ_REQUEST as data for the fair share, so a connection that only reads makes itself active
     * and its READ_REQUESTs count in the CE fraction, where clause 8.2.4 counts data packets only. Caught by
     * {@code FairShareCase.readRequestsAndProbesMakeNoConnectionActive}.
     */
    FAIR_SHARE_COUNTS_READ_REQUESTS(breaks("8.2.4")),

    /**
     * Checks a READ_REQUEST's message offset plus its payload length field against its message length as a data
     * packet's segment, dropping one that passes it under {@code rx_inconsistent_length}, where clause 5.2.2 leaves
     * those fields to clause 5.2.5 ({@code rx_invalid_field}). Caught by
     * {@code ReceiveChecksCase.readRequestFieldsPastItsLengthAreInvalidFields}.
     */
    READ_REQUEST_SEGMENT_CHECKED(breaks("5.2.2")),
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

package org.mrconf.replay;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A vector's {@code vector.json}, as {@link SidecarReader} reads it; the format is documented in
 * {@code test-vectors/README.md} and its JSON Schema is {@code test-vectors/schema/vector-1.schema.json}.
 *
 * @param id           the vector's id: its folder's path under {@code test-vectors/}
 * @param specVersion  the Open Draft version it was written against; must be the suite's
 * @param clauses      the clause ids it checks
 * @param kind         valid, invalid or inopportune
 * @param purpose      the test purpose, one sentence
 * @param profiles     the profiles a device must claim for the vector to apply
 * @param setup        what the DUT is given before the stimulus
 * @param placeholders the recorded values the replay rewrites to the DUT's actual ones
 * @param pacing       {@code fast} or {@code recorded}
 * @param asCaptured   the link-level fields of each stimulus frame replayed as captured rather than as the wire link's:
 *     {@code sourcePort} (the UDP source port, the entropy: clause 4.1.4), {@code ecn} (the IP ECN field: clauses
 *     4.1.7, 8.2.2), {@code sourceAddress} (a frame whose IP source is not the first frame's goes from the link's
 *     other address: clause 11.2.2), {@code ipFamily} (the vector applies only on a link of the stimulus's IP
 *     version: clauses 4.1.1, 4.1.2); a link that cannot send them makes the vector not applicable
 * @param udpChecksums the stimulus frames sent whole with a deliberate UDP checksum, by frame index from 0 (clause
 *     4.1.6): the capture holds right checksums, as every committed pcap must, and the sidecar says which frames
 *     replay sends with a zero or a wrong one instead; such a vector needs a link that builds whole frames and one
 *     of the stimulus's IP version, else it is not applicable
 * @param expect       what must hold afterwards
 * @param steps        the run's steps in order when the DUT takes part as a sender (work it is asked to post, packets
 *     it must send, stimulus frames, checks on the way); empty: the whole stimulus is sent, then {@code expect}
 */
public record Sidecar(
        String id,
        String specVersion,
        List<String> clauses,
        String kind,
        String purpose,
        List<String> profiles,
        List<String> unclaimedProfiles,
        Setup setup,
        Placeholders placeholders,
        String pacing,
        java.util.Set<String> asCaptured,
        Map<Integer, org.mrconf.pcap.ChecksumMode> udpChecksums,
        Expect expect,
        List<Step> steps) {
    /**
     * Why a device with {@code claims} cannot run this vector: a profile it needs and does not claim, or one the vector
     * is about a device without and it claims; empty when it can.
     */
    public java.util.Optional<String> profilesUnmet(final java.util.function.Predicate<String> claims) {
        for (final String profile : profiles) {
            if (!claims.test(profile)) {
                return java.util.Optional.of(
                        "the vector needs the " + profile + " profile, which the device does not claim");
            }
        }
        for (final String profile : unclaimedProfiles) {
            if (claims.test(profile)) {
                return java.util.Optional.of(
                        "the vector is about a device without the " + profile + " profile, and the device claims it");
            }
        }
        return java.util.Optional.empty();
    }

    /** The {@link #asCaptured} fields. */
    public static final String SOURCE_PORT = "sourcePort";

    public static final String ECN = "ecn";
    public static final String SOURCE_ADDRESS = "sourceAddress";
    public static final String IP_FAMILY = "ipFamily";

    /** Whether replay must carry the stimulus on a link of its own IP version ({@link #IP_FAMILY} or checksums). */
    public boolean needsCapturedIpFamily() {
        return asCaptured.contains(IP_FAMILY) || !udpChecksums.isEmpty();
    }

    /**
     * The connection and what the DUT holds before the stimulus.
     *
     * @param initialPsn the first PSN of every path the tester sends on (the DUT's receive PSN), e.g. near 2^32 to
     *     test wrap-around; the stimulus's PSNs are shifted from {@link Placeholders#psnBase()} to it
     * @param initialSendPsn the first PSN of every path the DUT sends on
     */
    public record Setup(
            int paths,
            int streams,
            long initialPsn,
            long initialSendPsn,
            List<Region> regions,
            List<Receive> receives,
            long peerMaxOutstandingMessages) {}

    /**
     * A region the DUT registers; {@code fill} is the byte every byte starts as, then {@code hex} (if present) the
     * bytes from offset 0, e.g. the source of a WRITE the DUT is asked to post.
     */
    public record Region(String name, long length, List<String> access, int fill, Optional<String> hex) {}

    /** A receive the DUT posts on a stream into a region. */
    public record Receive(int stream, String region, long offset, long length, long wrId) {}

    /**
     * What the stimulus was recorded with. Replay rewrites the destination connection id, each region's address and
     * key, and each path's PSNs (from {@code psnBase}) to the DUT's actual values, then recomputes the CRC; IP
     * addresses, ports and MACs are the wire link's.
     */
    public record Placeholders(
            long connection,
            long psnBase,
            Map<String, RegionPlaceholder> regions,
            Map<String, RequestPlaceholder> requests) {}

    /**
     * The sink handle and MSN a READ_REQUEST of the DUT had when the stimulus was recorded: the READ_RESPONSEs of the
     * stimulus that carry this sink handle get the actual request's sink handle, MSN and stream, once an {@link Await}
     * step bound the request under this name.
     */
    public record RequestPlaceholder(long sinkHandle, long msn) {}

    /** The address and key a region had when the stimulus was recorded. */
    public record RegionPlaceholder(long address, long key) {}

    /**
     * The expectations; every list may be empty. {@code toTesterPort}: every packet the DUT sent went to the tester's
     * address and MetaRoCE port, whatever source port the tester's packet came from (clauses 4.1.3, 4.2.3).
     * {@code nacksFirst}: every NACK of the DUT comes before any ACK of its path that reports the NACK's PSN as
     * received, and its cumulative psn does not cover that PSN (clause 9.1.6). {@code rateHintInEveryAck}: every ACK
     * of the DUT carries a rate hint, never 0 Mbit/s (clause 8.2.3). {@code noCongestionSignals}: every ACK of the DUT
     * carries CE count 0 and rate hint 0xFFFFFFFF (clause 8.2.6, a device without congestion). {@code distinctSinkHandles}: no READ_REQUEST of
     * the DUT carries the sink handle of an earlier READ (clause 7.4.4). {@code sentUdpChecksums}: every datagram
     * the DUT sent carries a right UDP checksum, or over IPv4 a zero one (clause 4.1.6); it needs a link that shows
     * the DUT's whole frames. {@code placedWhenAcknowledged}: after each stimulus frame, the bytes of every WRITE an
     * ACK has reported as received are in place when read right after that ACK (clause 8.1.1; a vector without
     * steps only). {@code ackCoalescing}: on each path, each ACK of the DUT advances the cumulative PSN over the one
     * before it (the first over the initial PSN) by at most the device's declared ACK coalescing count, 16 when it
     * declares none (clause 8.1.4; for a stimulus of in-order packets without ACK_REQUEST).
     */
    public record Expect(
            List<RegionContent> regions,
            List<CompletionExpectation> completions,
            boolean noOtherCompletions,
            List<CounterExpectation> counters,
            List<ResponseExpectation> responses,
            List<ResponseExpectation> never,
            boolean sentPsnsFromInitial,
            boolean retransmissionsFaithful,
            boolean completionsInOrder,
            boolean toTesterPort,
            boolean nacksFirst,
            boolean rateHintInEveryAck,
            boolean noCongestionSignals,
            boolean distinctSinkHandles,
            boolean sentUdpChecksums,
            boolean placedWhenAcknowledged,
            boolean ackCoalescing) {}

    /** Bytes of a region after the stimulus: either their hex or their SHA-256. */
    public record RegionContent(
            String region, long offset, int length, Optional<String> hex, Optional<String> sha256) {}

    /** A completion the DUT must report. */
    public record CompletionExpectation(long wrId, String status, Optional<String> type, OptionalLong immediate) {}

    /** A counter's growth during the stimulus: exactly {@code delta}, or at least {@code atLeast}. */
    public record CounterExpectation(String name, OptionalLong delta, OptionalLong atLeast) {}

    /**
     * Packets the DUT sends: an opcode and optional field values; at least {@code atLeast} of them, and at most
     * {@code atMost} when given, counting a data packet only at its first transmission (retransmissions repeat a
     * PSN the DUT already sent, and any path may need them). {@code sack}, for an ACK, is the exact set of SACK bits
     * it sets, as offsets from its cumulative PSN (Table 5-9), and {@code echoedTimestamp} the timestamp it echoes
     * (clause 8.2.1; stimulus timestamps are sent as recorded); {@code rejected}, for a NACK, the packet it names.
     * {@code cumulativePsnOffset} is an ACK's psn field or a NACK's cumulative psn field; {@code ceCount} an ACK's CE
     * count (clause 8.2.2).
     */
    public record ResponseExpectation(
            String opcode,
            OptionalLong path,
            OptionalLong cumulativePsnOffset,
            Optional<String> nackCode,
            int atLeast,
            java.util.OptionalInt atMost,
            Optional<List<Integer>> sack,
            OptionalLong echoedTimestamp,
            Optional<Rejected> rejected,
            OptionalLong ceCount) {}

    /**
     * What a NACK names of the packet it rejects (Table 5-10): its PSN as an offset from the initial PSN, its stream
     * and its MSN.
     */
    public record Rejected(long psnOffset, int stream, long msn) {}

    /** One step of a vector in which the DUT takes part as a sender. */
    public sealed interface Step permits Post, Await, Send, Check, Acks, Nack, Control {}

    /**
     * Asks the DUT, through its control channel, to post a WRITE, WRITE_WITH_IMMEDIATE, SEND or READ from (or into)
     * {@code length} bytes of its region {@code region} at {@code offset}; {@code remoteAddress} and
     * {@code remoteKey} are the tester's, sent as they are.
     */
    public record Post(
            String op,
            int stream,
            long wrId,
            String region,
            long offset,
            long length,
            long remoteAddress,
            long remoteKey,
            OptionalLong immediate)
            implements Step {}

    /**
     * Waits until the DUT has sent the whole of one message of {@code opcode} on {@code stream} (every byte of its
     * message length; one packet for a READ_REQUEST; for READ_RESPONSEs, the answer to one READ_REQUEST) and compares every packet of it field by field with the given
     * values. Tolerated, as the spec allows: the path (any of the connection's), the segment sizes, the PSNs (checked
     * by {@link Expect#sentPsnsFromInitial()} when asked), timestamps, the ACK_REQUEST flag, retransmissions of a
     * segment with the same bytes, and the UDP source port. {@code as} names the message for a {@link Nack} step
     * and, for a READ_REQUEST, for a {@link RequestPlaceholder} of the same name. {@code reservedZero} also checks the reserved fields
     * (clause 5.1.1), {@code fullSegments} the segment sizes at the device's MTU (clause 4.1.9).
     */
    public record Await(
            String opcode,
            int stream,
            Optional<String> as,
            OptionalLong msn,
            OptionalLong messageLength,
            OptionalLong remoteAddress,
            OptionalLong remoteKey,
            OptionalLong immediate,
            OptionalLong rsn,
            OptionalLong sinkHandle,
            Optional<String> payloadHex,
            Optional<String> payloadSha256,
            boolean reservedZero,
            boolean fullSegments)
            implements Step {}

    /** Sends frames of {@code stimulus.pcap}, by index from 0, in this order (an index may repeat: a duplicate). */
    public record Send(List<Integer> frames) implements Step {}

    /**
     * Checks on the way: region bytes that must be there (waited for, at most 5 s: placement on arrival), work
     * requests that must have completed (waited for, at most 5 s) and others that must not have completed yet
     * (watched while the DUT is quiet), and the send window: the most PSNs
     * the DUT may have outstanding on each path from the cumulative PSN the tester last acknowledged (counted once the
     * DUT sent no new PSN for 300 ms; retransmissions are no new PSNs). A DUT that stopped short of the window
     * (its congestion window may be smaller) makes the vector INCONCLUSIVE: the edge was not reached.
     *
     * <p>The other checks need a tester that has acknowledged nothing: an {@link Acks} step held the ACKs back before
     * the first post, and none released them since ({@link HeldAckChecks}). {@code resentOldest} (clause 6.6.2):
     * each path's oldest PSN is retransmitted again and again, each time within the declared maximum RTO and not
     * sooner than the minimum, give or take the declared tolerance; {@code newSourcePort} (clause 6.6.4, with
     * {@code resentOldest}): each retransmission leaves from another UDP source port than the transmission before
     * it; {@code backoff} (clause 6.6.3, with {@code resentOldest}): the intervals start at the declared initial RTO
     * and double up to the maximum; {@code everyPath} (clause 10.2.1): once the DUT stopped sending new PSNs with data held back, every path of
     * the connection carried new PSNs; {@code failed} (clause 6.7.3; only send and check steps may follow): the work requests complete with
     * an error within twice the declared connection timeout, not before it.
     *
     * <p>{@code rateWithinHintMs} (clause 10.1.4) judges the DUT's pace under the rate hint R of the latest {@link Acks}
     * step: from the first data packet that arrives after the check begins, the bytes of the packets the DUT stamped
     * within that many milliseconds of it, on its own clock (transmit timestamps), must not exceed R times the
     * interval plus the declared tolerance, plus four packets of its MTU. The interval must be at least the DUT's
     * smoothed RTT (choose one much longer, e.g. 100 ms); a vector shows first that the DUT took in an ACK with R (a
     * completed message), then posts a message longer than the interval allows at R.
     *
     * <p>{@code resentOnlyLost} (clauses 6.3.1 and 6.4.1) judges what the DUT resends after the ACKs of the latest
     * {@link Acks} step with {@code describe}, which the tester still holds back: every PSN those ACKs showed missing
     * below a PSN they reported received must be resent, and no PSN they reported received may be. The DUT's
     * {@code rto_expirations} counter tells a resend caused by the ACKs from one its timer caused ({@link
     * LossRepairCheck}).
     *
     * <p>{@code resentAfterRetry} (clause 9.1.9) judges the PSN the latest {@link Nack} step NACKed RECEIVER_NOT_READY
     * with a {@code retryAfterUs}: the DUT resends it on its path, and not before retry-after has passed since the
     * tester sent the NACK, whatever ACKs (a gap) or its timer show meanwhile ({@link RetryWaitCheck}).
     *
     * <p>{@code notResentForMs} (clause 9.1.11) watches, for that many milliseconds after the latest {@link Nack} step
     * NACKed a PSN PSN_OUT_OF_WINDOW, while the tester still holds its ACKs back: the DUT must not resend that PSN
     * before an ACK moves the window or its timer expires, so a copy that arrives with no expiry since just before the
     * NACK is a failure. That the PSN is resent once an ACK moves the window, a later {@code completed} shows.
     *
     * <p>{@code pathWindow} (clause 10.1.1) and {@code connectionWindow} (clause 10.1.2), while the tester holds its
     * ACKs back, count the DUT's packets in flight: the distinct PSNs it sent on each path at or after the cumulative
     * PSN the tester last acknowledged there. Each path's count must not exceed the path's congestion window as the
     * tester knows it, and their sum not the connection's: the declared initial window, grown by at most 1/W for each
     * packet the tester acknowledged without a CE count, and after an ACK with a CE count ({@link Acks#ceCount()})
     * that window times the declared factor, once (but at least 1), plus two packets of slack ({@link
     * CongestionWindowCheck}). A DUT that stopped short of the window makes the vector INCONCLUSIVE.
     *
     * <p>{@code unhealthy}, {@code avoided} and {@code healed} judge path health ({@link PathHealthCheck}):
     * {@code unhealthy} (while an acks step keeps paths silent, after a post) waits until each silent path's timer has
     * expired the declared number of times, as its resends and the DUT's {@code rto_expirations} both show, and the
     * DUT is quiet; {@code avoided} (later in the same silence, after another post) fails a new PSN on a silent path
     * (clause 6.7.1); {@code healed} (after the acks step that ended the silence, with ACKs held since and a post)
     * fails a formerly silent path that gets no new PSN while the DUT holds posted data back (clause 6.7.2).
     *
     * <p>{@code rtoFollowsEcho} (clause 6.6.1; with ACKs held since the latest acks step and a post since, after
     * exactly one data packet acknowledged with an {@code echoAge}) judges the first resend of the next packet against
     * the RTO that one RTT sample gives, bounded on the DUT's own clock ({@link RttEstimateCheck}).
     *
     * <p>{@code longHaulTimers} (clause 6.6.5) judges the device's declared timers: a minimum RTO of at most 20 ms,
     * an initial RTO longer than 10 ms plus the tolerance, a maximum RTO of at least 1 s. {@code noSpuriousResend}
     * (clause 6.6.5; after an acks step that released ACKs held back from before the first post) fails a packet sent
     * during that hold and resent sooner after its first transmission than the declared initial RTO less the tolerance,
     * by both clocks (the tester's arrival times and the DUT's timestamps); a resend either clock puts later may be the
     * timer's, and the vector is INCONCLUSIVE ({@link LongHaulChecks}).
     */
    public record Check(
            List<RegionContent> regions,
            List<Long> completed,
            List<Long> notCompleted,
            OptionalLong sendWindow,
            boolean resentOldest,
            boolean newSourcePort,
            boolean backoff,
            boolean everyPath,
            List<Long> failed,
            OptionalLong rateWithinHintMs,
            boolean resentOnlyLost,
            boolean resentAfterRetry,
            OptionalLong notResentForMs,
            boolean pathWindow,
            boolean connectionWindow,
            boolean unhealthy,
            boolean avoided,
            boolean healed,
            boolean rtoFollowsEcho,
            boolean longHaulTimers,
            boolean noSpuriousResend)
            implements Step {
        /** Whether this check needs a tester that has acknowledged nothing. */
        public boolean needsNothingAcknowledged() {
            return resentOldest || newSourcePort || backoff || everyPath || !failed.isEmpty();
        }

        /** Whether this check judges a list of checks at all (a check step must). */
        public boolean checksSomething() {
            return !regions.isEmpty()
                    || !completed.isEmpty()
                    || !notCompleted.isEmpty()
                    || sendWindow.isPresent()
                    || rateWithinHintMs.isPresent()
                    || resentOnlyLost
                    || resentAfterRetry
                    || notResentForMs.isPresent()
                    || pathWindow
                    || connectionWindow
                    || unhealthy
                    || avoided
                    || healed
                    || rtoFollowsEcho
                    || longHaulTimers
                    || noSpuriousResend
                    || needsNothingAcknowledged();
        }
    }

    /**
     * Holds back the tester's ACKs of the DUT's packets ({@code hold}), or sends them (one per path, describing all
     * it received) and acknowledges each packet at once again. With {@code loseFirst}, until the next acks step the
     * tester treats the first PSN of each path (its initial send PSN) as lost: it neither records nor acknowledges
     * it, so its ACKs keep the cumulative PSN there and report the later PSNs in the SACK bitmap. With
     * {@code rateHintMbps}, every ACK the tester sends from then on carries that rate hint (clause 8.2.3), in Mbit/s.
     *
     * <p>{@code echoAgeMs}: from then on each ACK echoes the transmit timestamp it answers less that many milliseconds
     * (modulo 2^32 ns), so the DUT's RTT samples, and with them its smoothed RTT and RTO, grow by that much: its timer
     * is stretched far past the tester's answers (0 echoes true timestamps again). {@code lose}: from then on every
     * arrival of each listed PSN is treated as lost (neither recorded nor acknowledged) until the next acks step; the
     * offsets count, on each path, from the first PSN the DUT had not sent on it at this step. {@code describe} (with {@code hold}
     * true): ends those losses and sends one ACK per path that received anything, describing all it received, and goes
     * on holding; a {@link Check#resentOnlyLost()} check judges what the DUT resends after them. {@code ceCount}: from
     * then on every ACK the tester sends reports that CE count (clause 8.2.2; 0 reports none again), so that the DUT's
     * congestion windows decrease (clauses 10.1.1, 10.1.2). {@code silentPaths}: until the next acks step the tester
     * records what arrives on these paths but acknowledges none of it, so that their timers expire (clause 6.7.1);
     * that next step's ACKs acknowledge them. {@code waitMs}: the step first waits that many milliseconds, so the ACKs
     * it releases reach the DUT as a path of that round-trip time would bring them (clause 6.6.5's 10 ms path).
     */
    public record Acks(
            boolean hold,
            boolean loseFirst,
            OptionalLong rateHintMbps,
            OptionalLong echoAgeMs,
            List<Long> lose,
            boolean describe,
            OptionalLong ceCount,
            List<Integer> silentPaths,
            OptionalLong waitMs)
            implements Step {}

    /**
     * A NACK of {@code code} for the message an {@link Await} step bound as {@code of}: its first packet's path and
     * PSN, its stream and MSN (clause 5.4.1); {@code stream} and {@code msn}, when given, replace the message's own in
     * the NACK (a NACK that names an outstanding PSN but another message, Table 5-13). {@code retryAfterUs}, for
     * RECEIVER_NOT_READY only, is the NACK's retry-after field (clause 9.1.9); the tester first waits until the DUT
     * has been quiet, so that no resend of its timer crosses the NACK, and a {@link Check#resentAfterRetry()} check
     * then judges the wait.
     */
    public record Nack(String of, String code, OptionalLong stream, OptionalLong msn, OptionalLong retryAfterUs)
            implements Step {}

    /**
     * A control request between packets: {@code invalidate_region} invalidates the DUT's region {@code region}
     * (clause 11.1.4); {@code destroy_connection} destroys the vector's connection (clause 4.2.2). Each waits for the
     * DUT's answer, so later steps see its effect.
     */
    public record Control(String op, Optional<String> region) implements Step {
        public static final String INVALIDATE_REGION = "invalidate_region";
        public static final String DESTROY_CONNECTION = "destroy_connection";
    }
}

package org.mrconf.variant;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.mrconf.net.EcnCodepoint;
import org.mrconf.transport.EndpointConfig;
import org.mrconf.transport.Feature;
import org.mrconf.transport.OpenChoices;

/**
 * The catalogue of legal variants of the reference: the mirror image of {@link org.mrconf.defect.Defect}. A defect
 * breaks a clause and must make its case FAIL; a variant takes a choice the Open Draft leaves open (its implementation
 * freedoms, Table 12-3, and the declarations Table 12-2 allows) which the standard configuration does not take, and
 * every case must still PASS (or be not applicable, or WARN on a SHOULD), with no FAIL, no ERROR and no INCONCLUSIVE on
 * a MUST clause. {@code metaroce selftest} runs each one on the clauses its choice bears on.
 *
 * <p>A variant only configures the reference, as a vendor configures a NIC: it changes the endpoint's parameters or
 * picks one of the behaviours the reference offers, and the device declares what it then is in {@code hello}, so a
 * variant is judged by what it declares, as a device without a declaration file is (clause 12.1.5).
 *
 * <p>Every constant is off unless selected with {@code --dut 'reference?variant=NAME'} or by the self-test. Each names
 * the freedom of Table 12-3 that allows it and the clauses whose cases it bears on (the cases the self-test runs).
 */
public enum Variant implements LegalChoice {
    /**
     * First windows of one packet, path and connection: the least section 10 allows (freedom F-23: "a tester must not
     * assume more than one").
     */
    FIRST_WINDOWS_OF_ONE(
            "F-23",
            "10",
            on("6", "7.4", "7.5", "9.1", "10", "11.1"),
            c -> c.toBuilder().windows(1, 1, c.maxConnectionWindow()).build()),

    /** First windows of two packets per path and three per connection (freedom F-23). */
    FIRST_WINDOWS_OF_TWO_AND_THREE(
            "F-23",
            "10",
            on("6", "7.4", "7.5", "9.1", "10", "11.1"),
            c -> c.toBuilder().windows(2, 3, c.maxConnectionWindow()).build()),

    /** A connection window that is most of the time what binds: one path's first window (freedom F-23, F-30). */
    CONNECTION_WINDOW_OF_ONE_PATH(
            "F-23",
            "10.1.2",
            on("10", "8.2"),
            c -> c.toBuilder()
                    .windows(c.initialPathWindow(), c.initialPathWindow(), c.maxConnectionWindow())
                    .build()),

    /**
     * A declared maximum connection window (clause 10.1.2, freedom F-24): first windows of 4 packets per path and 8 per
     * connection, the connection window's additive increase stopping at 40, which hello declares.
     */
    DECLARED_MAXIMUM_CONNECTION_WINDOW(
            "F-24",
            "10.1.2",
            on("10", "8.2"),
            c -> c.toBuilder().windows(4, 8, 40).build()),

    /** An ACK for every packet: no coalescing at all (clause 8.1.4, freedom F-17). */
    ACK_EVERY_PACKET(
            "F-17",
            "8.1.4",
            on("6", "8.1", "9.1"),
            c -> c.toBuilder().ackPolicy(c.ackDelayNs(), 1).build()),

    /**
     * The most coalescing the reference's timers allow: an ACK delay of a quarter of the minimum RTO and 64 packets per
     * ACK, declared as such (clause 8.1.4, freedom F-17).
     */
    ACK_MOST_COALESCING(
            "F-17",
            "8.1.4",
            on("6", "8.1", "9.1", "10"),
            c -> c.toBuilder()
                    .ackPolicy(Math.max(c.ackDelayNs(), c.minRtoNs() / 4), 64)
                    .build()),

    /** On a retransmission timeout, resend the oldest outstanding PSN alone (clause 6.6.2, freedom F-11). */
    TIMEOUT_RESENDS_OLDEST_ONLY(
            "F-11",
            "6.6.2",
            on("6", "10.1.3", "11.1"),
            c -> c.toBuilder().timeoutResendsOldestOnly(true).build()),

    /**
     * No tail-loss probe: clause 6.3.4 is a SHOULD, and a device that does not implement it does not list it (the
     * timer is then the only backstop of a lost last packet).
     */
    NO_TAIL_LOSS_PROBE(
            "F-8", "6.3.4", on("6"), c -> c.toBuilder().tailLossProbe(false).build()),

    /**
     * Slower timers, declared: a minimum RTO four times the standard one, the initial RTO kept above it and a maximum
     * twice the standard (freedom F-30).
     */
    SLOWER_TIMERS(
            "F-30",
            "6.6.2",
            on("6.6", "6.7", "6.3.4", "9.1.9", "10.1.3"),
            c -> c.toBuilder()
                    .timers(
                            4 * c.minRtoNs(),
                            Math.max(4 * c.minRtoNs(), c.initialRtoNs()),
                            Math.max(4 * c.minRtoNs(), 2 * c.maxRtoNs()))
                    .build()),

    /** A gentler multiplicative decrease, declared (clause 10.1.1, freedom F-30): 0.7 instead of 0.5. */
    GENTLER_DECREASE(
            "F-30", "10.1.1", on("10"), c -> c.toBuilder().decreaseFactor(0.7).build()),

    /**
     * A lower target utilisation and an active window four hint intervals long, both declared (clause 8.2.4, freedoms
     * F-18 and F-30).
     */
    LOWER_UTILISATION_LONGER_ACTIVE_WINDOW(
            "F-18",
            "8.2.4",
            on("8.2", "10.1.5"),
            c -> c.toBuilder()
                    .rateHintUtilization(0.8)
                    .rateHintActiveWindow(4 * c.rateHintIntervalNs())
                    .build()),

    /** Other entropy choices when re-pathing (freedoms F-1 and F-10): another seed for the source ports it picks. */
    OTHER_ENTROPY_CHOICES(
            "F-10",
            "6.6.4",
            on("4.1", "6.4", "6.6", "6.7", "8.1.6"),
            c -> c.toBuilder().entropySeed(0x5eed_2026L).build()),

    /**
     * Core alone: none of read, immediate and congestion, so the windows are the declared first ones and never grow
     * (clause 10.1.6), and ACKs carry no congestion signals (clause 8.2.6). Freedom F-23 and clause 12.1.1.
     */
    CORE_ONLY(
            "F-23",
            "10.1.6",
            on("5.6.7", "6", "7", "8", "9", "10", "11"),
            c -> c.toBuilder().features(EnumSet.noneOf(Feature.class)).build()),

    /** Core alone with first windows of one packet (freedoms F-23 and F-19). */
    CORE_ONLY_WINDOWS_OF_ONE(
            "F-23",
            "10.1.6",
            on("6", "7.5", "10", "11.1"),
            c -> c.toBuilder()
                    .features(EnumSet.noneOf(Feature.class))
                    .windows(1, 1, c.maxConnectionWindow())
                    .build()),

    /**
     * A receive a SEND has partly filled when its connection fails completes FLUSHED naming that SEND's MSN and message
     * length, where the standard configuration names neither (clause 6.7.4, freedom F-14).
     */
    FLUSHED_RECEIVE_NAMES_ITS_SEND(
            "F-14",
            "6.7.4",
            on("6.7.4"),
            c -> c.toBuilder().flushedReceiveNamesSend(true).build()),

    /**
     * A declared reorder tolerance (clause 6.3.3, a MAY, freedom F-7): three PSNs or 40 ms, whichever comes first.
     */
    REORDER_TOLERANCE(
            "F-7",
            "6.3.3",
            on("6.3", "6.4", "6.5"),
            c -> c.toBuilder().reorderTolerance(3, 40_000_000L).build()),

    /** Data packets, READ_REQUESTs and PROBEs marked ECT(1) rather than ECT(0) (clause 4.1.7, freedom F-3). */
    ECT_ONE_MARKS(
            "F-3",
            "4.1.7",
            on("4.1", "8.2", "10.1", "6.3.4", "6.7"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .ectCodepoint(EcnCodepoint.ECT_1)
                            .build())
                    .build()),

    /**
     * No answer to packets for unknown connections: clause 11.2.3 is a MAY, which this device does not list in {@code
     * hello} (freedom F-29); the packets are still dropped and counted (clause 11.2.1).
     */
    SILENT_TO_UNKNOWN_CONNECTIONS(
            "F-29",
            "11.2.3",
            on("11.2", "9.1.10", "6.7.4", "4.2.2"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .answersUnknownConnections(false)
                            .build())
                    .build()),

    /**
     * An ACK that is not late but acknowledges nothing new leaves a backed-off RTO as it is; only progress (a cumulative
     * PSN advanced or a new SACK bit) restores the computed one (clause 6.6.3, freedom F-12).
     */
    BACKOFF_KEPT_WITHOUT_PROGRESS(
            "F-12",
            "6.6.3",
            on("6.6", "6.7", "6.3.4", "9.1.9", "10.1.3"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .backoffKeptWithoutProgress(true)
                            .build())
                    .build()),

    /**
     * Core alone, its sender ignoring the CE counts and rate hints it receives, where the standard core configuration
     * acts on them within its declared windows (clause 8.2.6, freedom F-19).
     */
    CORE_ONLY_IGNORES_CONGESTION_SIGNALS(
            "F-19",
            "8.2.6",
            on("8.2", "10", "6"),
            c -> c.toBuilder()
                    .features(EnumSet.noneOf(Feature.class))
                    .choices(c.choices().toBuilder()
                            .ignoresCongestionSignals(true)
                            .build())
                    .build()),

    /**
     * A PSN NACKed RECEIVER_NOT_READY with retry-after 0 (which a conforming receiver never sends) is resent only after
     * the device's own declared retry interval, not at once (clause 9.1.9, freedom F-22).
     */
    ZERO_RETRY_AFTER_WAITS(
            "F-22",
            "9.1.9",
            on("9.1", "7.3"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .zeroRetryAfterWaitNs(c.receiverNotReadyRetryNs())
                            .build())
                    .build()),

    /** The tail-loss probe sent late: at three quarters of the path's RTO (clause 6.3.4, freedom F-8). */
    LATE_TAIL_LOSS_PROBE(
            "F-8",
            "6.3.4",
            on("6"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().lateTailLossProbe(true).build())
                    .build()),

    /**
     * The tail-loss probe's ACK deems nothing lost: the PSNs it does not report wait for the timer (or a gap) instead
     * of being resent at once (clause 6.3.4, freedom F-9).
     */
    PROBE_DEEMS_NOTHING_LOST(
            "F-9",
            "6.3.4",
            on("6"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().probeDeemsNothingLost(true).build())
                    .build()),

    /** A connection's first new packet starts the round-robin order at its last path (clause 10.2.2, freedom F-27). */
    ROUND_ROBIN_STARTS_AT_LAST_PATH(
            "F-27",
            "10.2.2",
            on("10.2", "4.1", "6", "7", "8.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .roundRobinStartsAtLastPath(true)
                            .build())
                    .build()),

    /** READ_RESPONSEs on the path their READ_REQUEST came on, not sprayed (clause 7.4.1, freedom F-15). */
    READ_RESPONSES_ON_REQUEST_PATH(
            "F-15",
            "7.4.1",
            on("7.4", "5.2", "9.1", "11.1", "10.2"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .readResponsesOnRequestPath(true)
                            .build())
                    .build()),

    /**
     * A READ whose sink is invalidated after its READ_REQUEST went out completes LOCAL_PROTECTION_ERROR at the
     * invalidation, not at the first READ_RESPONSE after it (clause 11.1.7, freedom F-28).
     */
    READS_COMPLETE_AT_INVALIDATION(
            "F-28",
            "11.1.7",
            on("11.1", "7.4", "7.5", "6.7.4"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .readsCompleteAtInvalidation(true)
                            .build())
                    .build()),

    /**
     * An unhealthy path with nothing outstanding tested once per declared maximum RTO, the longest interval clause 6.7.2
     * allows, not once per its current RTO (freedom F-13).
     */
    UNHEALTHY_PATH_TESTED_AT_MAXIMUM_RTO(
            "F-13",
            "6.7.2",
            on("6.7", "6.6", "10.2"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .unhealthyPathTestedAtMaximumRto(true)
                            .build())
                    .build()),

    /**
     * A NACK's cumulative psn taken as an ACK without SACK bits, where the standard configuration waits for the ACK that
     * follows (clause 9.1.8, freedom F-21).
     */
    NACK_CUMULATIVE_TAKEN_AS_ACK(
            "F-21",
            "9.1.8",
            on("9.1", "6.3", "6.4", "7.3.2", "11.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .nackCumulativeTakenAsAck(true)
                            .build())
                    .build()),

    /**
     * A new entropy value, another UDP source port, each time a path sends a new PSN with none outstanding, as flowlet
     * switching does (clause 4.1.4, freedom F-1: a sender may change a path's entropy at any time).
     */
    ENTROPY_CHANGED_AT_IDLE(
            "F-1",
            "4.1.4",
            on("4.1", "4.2", "6", "8.1", "10.2"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().entropyChangedAtIdle(true).build())
                    .build()),

    /** ACKs and NACKs sent ECN-capable, ECT(0), where the standard configuration sends them Not-ECT (clause 4.1.7, F-4). */
    ACKS_AND_NACKS_ECN_CAPABLE(
            "F-4",
            "4.1.7",
            on("4.1.7", "8.1", "8.2", "9.1", "10.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .controlPacketEcn(EcnCodepoint.ECT_0)
                            .build())
                    .build()),

    /**
     * The NACK rate limit of clause 9.1.5 counted per stream, so that a NACK of one message may hold back that of
     * another message of its stream within a smoothed RTT (freedom F-20), for the packets the limit can apply to: those
     * refused at step 3, 5 or 6 of clause 5.6.6.
     */
    NACK_LIMIT_PER_STREAM(
            "F-20",
            "9.1.5",
            on("9.1", "5.6", "7.3", "7.5", "11.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .nackLimitScope(OpenChoices.NackLimitScope.STREAM)
                            .build())
                    .build()),

    /**
     * The NACK rate limit of clause 9.1.5 counted per connection (freedom F-20), the widest scope allowed: any NACK of
     * a code on a path holds back, within a smoothed RTT, that of another packet refused with it at step 3, 5 or 6.
     */
    NACK_LIMIT_PER_CONNECTION(
            "F-20",
            "9.1.5",
            on("9.1", "5.6", "7.3", "7.5", "11.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder()
                            .nackLimitScope(OpenChoices.NackLimitScope.CONNECTION)
                            .build())
                    .build()),

    /**
     * A coarser pacing granularity (clause 10.1.4, freedom F-25): the token bucket is refilled in whole ticks of 10
     * microseconds, as a timer wheel would, so the sender sends in lumps and, at high rates, slower than its limit.
     */
    COARSER_PACING(
            "F-25",
            "10.1.4",
            on("10", "8.2", "6.6.5"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().pacingTickNs(10_000).build())
                    .build()),

    /** The rate-hint window floors rounded up to whole packets (clause 10.1.5, freedom F-26). */
    WINDOW_FLOORS_ROUNDED_UP(
            "F-26",
            "10.1.5",
            on("10", "8.2"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().windowFloorsRoundedUp(true).build())
                    .build()),

    /**
     * Queued messages take turns on the wire, one packet each, within a stream and across streams, rather than each
     * going out wholly before the next (clause 7.5.7, freedom F-16); completions stay in MSN order.
     */
    MESSAGES_INTERLEAVED(
            "F-16",
            "7.5.7",
            on("5.6", "6.3", "6.4", "7", "9.1", "11.1"),
            c -> c.toBuilder()
                    .choices(c.choices().toBuilder().messagesInterleaved(true).build())
                    .build());

    private final String freedom;
    private final String clause;
    private final List<String> bearsOn;
    private final UnaryOperator<EndpointConfig> configure;

    Variant(
            final String freedom,
            final String clause,
            final List<String> bearsOn,
            final UnaryOperator<EndpointConfig> configure) {
        this.freedom = freedom;
        this.clause = clause;
        this.bearsOn = bearsOn;
        this.configure = configure;
    }

    private static List<String> on(final String... clausesOrSections) {
        return List.of(clausesOrSections);
    }

    /** The implementation freedom of the Open Draft's Table 12-3 that allows this variant, e.g. {@code F-11}. */
    public String freedom() {
        return freedom;
    }

    /** The clause that leaves this choice open. */
    public String clause() {
        return clause;
    }

    /**
     * The clauses and sections (a section prefix such as {@code 6.3} stands for its clauses) whose cases this choice
     * bears on: the cases the self-test runs against it.
     */
    @Override
    public List<String> bearsOn() {
        return bearsOn;
    }

    /** The endpoint {@code standard} configured with this variant's choice. */
    @Override
    public EndpointConfig configure(final EndpointConfig standard) {
        return configure.apply(standard);
    }

    /** Its name in a target or on the command line: lower case with dashes, e.g. {@code ack-every-packet}. */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String label() {
        return flagName();
    }

    /** The variant {@code name} (flag or constant form); an {@link IllegalArgumentException} lists the known ones. */
    public static Variant fromName(final String name) {
        final String constant = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final Variant variant : values()) {
            if (variant.name().equals(constant)) {
                return variant;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + name + "'; known: "
                + Arrays.stream(values()).map(Variant::flagName).collect(Collectors.joining(", ")));
    }
}

package org.mrconf.transport.defects;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.mrconf.defect.Defect;
import org.mrconf.defect.Defects;
import org.mrconf.transport.AckSeam;
import org.mrconf.transport.CompletionSeam;
import org.mrconf.transport.ConnectionSeam;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.transport.SchedulerSeam;
import org.mrconf.transport.SenderSeam;
import org.mrconf.transport.TransportSeams;

/**
 * Builds the transport's seams for a set of active defects. Each defect committed inside the transport is one class,
 * named for it, in the subpackage of {@code org.mrconf.transport.defects} of its seam: it wraps the seam built so far and
 * changes only the decisions the defect gets wrong, forwarding the rest. Several defects active at one seam wrap one
 * another in catalogue order, so {@code --defect a,b} commits both. A defect in no table here is committed outside
 * {@code org.mrconf.transport} (agent, soft DUT) or still read as a flag by a transport class not yet moved to seams.
 */
public final class DefectSeams {
    /** The defects at {@link OutboundSeam}: what {@code OutboundPackets} writes into a packet. */
    private static final Table<OutboundSeam> OUTBOUND = new Table<>(OutboundSeam.CORRECT)
            .put(Defect.RETRANSMIT_WITHOUT_FLAG, org.mrconf.transport.defects.outbound.RetransmitWithoutFlag::new)
            .put(Defect.RETRANSMIT_ON_OTHER_PATH, org.mrconf.transport.defects.outbound.RetransmitOnOtherPath::new)
            .put(
                    Defect.UNHEALTHY_PATH_RESENDS_ELSEWHERE,
                    org.mrconf.transport.defects.outbound.UnhealthyPathResendsElsewhere::new)
            .put(Defect.RETRANSMIT_STALE_TIMESTAMP, org.mrconf.transport.defects.outbound.RetransmitStaleTimestamp::new)
            .put(Defect.SACK_FIRST_WORD_ONLY, org.mrconf.transport.defects.outbound.SackFirstWordOnly::new)
            .put(Defect.NOT_ECT_ON_DATA, org.mrconf.transport.defects.outbound.NotEctOnData::new)
            .put(Defect.PROBE_NOT_ECT, org.mrconf.transport.defects.outbound.ProbeNotEct::new)
            .put(Defect.NONZERO_RESERVED_ON_SEND, org.mrconf.transport.defects.outbound.NonzeroReservedOnSend::new)
            .put(Defect.SEND_MINOR_VERSION, org.mrconf.transport.defects.outbound.SendMinorVersion::new)
            .put(Defect.MESSAGE_LENGTH_PER_PACKET, org.mrconf.transport.defects.outbound.MessageLengthPerPacket::new)
            .put(Defect.PER_PACKET_REMOTE_ADDRESS, org.mrconf.transport.defects.outbound.PerPacketRemoteAddress::new)
            .put(Defect.RSN_FROM_MSN, org.mrconf.transport.defects.outbound.RsnFromMsn::new)
            .put(Defect.READ_RESPONSE_MSN_ZERO, org.mrconf.transport.defects.outbound.ReadResponseMsnZero::new)
            .put(Defect.CRC_LITTLE_ENDIAN, org.mrconf.transport.defects.outbound.CrcLittleEndian::new)
            .put(Defect.SHIM_BEFORE_HEADER, org.mrconf.transport.defects.outbound.ShimBeforeHeader::new)
            .put(Defect.ACK_LAST_RECEIVED_PSN, org.mrconf.transport.defects.outbound.AckLastReceivedPsn::new)
            .put(Defect.SACK_MSB_FIRST, org.mrconf.transport.defects.outbound.SackMsbFirst::new)
            .put(Defect.NACK_ON_PATH_ZERO, org.mrconf.transport.defects.outbound.NackOnPathZero::new)
            .put(
                    Defect.RECEIVER_NOT_READY_WRONG_CODE,
                    org.mrconf.transport.defects.outbound.ReceiverNotReadyWrongCode::new)
            .put(Defect.MESSAGE_TOO_LONG_WRONG_CODE, org.mrconf.transport.defects.outbound.MessageTooLongWrongCode::new)
            .put(Defect.INVALID_REQUEST_WRONG_CODE, org.mrconf.transport.defects.outbound.InvalidRequestWrongCode::new)
            .put(Defect.OUT_OF_WINDOW_WRONG_CODE, org.mrconf.transport.defects.outbound.OutOfWindowWrongCode::new)
            .put(Defect.BOUNDS_WRONG_CODE, org.mrconf.transport.defects.outbound.BoundsWrongCode::new)
            .put(Defect.ACK_REPORTS_ANOTHER_PATH, org.mrconf.transport.defects.outbound.AckReportsAnotherPath::new)
            .put(Defect.CE_COUNT_NEVER_SET, org.mrconf.transport.defects.outbound.CeCountNeverSet::new)
            .put(Defect.NACK_RESETS_CE_COUNT, org.mrconf.transport.defects.outbound.NackResetsCeCount::new);

    /** The defects at {@link SenderSeam}: a sending path's PSNs, timers and windows. */
    private static final Table<SenderSeam> SENDER = new Table<>(SenderSeam.CORRECT)
            .put(Defect.INITIAL_PSN_IGNORED, org.mrconf.transport.defects.sender.InitialPsnIgnored::new)
            .put(Defect.SEND_WINDOW_OFF_BY_ONE, org.mrconf.transport.defects.sender.SendWindowOffByOne::new)
            .put(Defect.INITIAL_RTO_AT_MINIMUM, org.mrconf.transport.defects.sender.InitialRtoAtMinimum::new)
            .put(Defect.BACKOFF_NOT_RESTORED, org.mrconf.transport.defects.sender.BackoffNotRestored::new)
            .put(Defect.NO_RTO_BACKOFF, org.mrconf.transport.defects.sender.NoRtoBackoff::new)
            .put(Defect.RTO_NOT_CLAMPED_TO_MAX, org.mrconf.transport.defects.sender.RtoNotClampedToMax::new)
            .put(Defect.RTO_CAPPED_AT_511_MS, org.mrconf.transport.defects.sender.RtoCappedAt511Ms::new)
            .put(
                    Defect.WINDOWS_GROW_WITHOUT_CONGESTION,
                    org.mrconf.transport.defects.sender.WindowsGrowWithoutCongestion::new)
            .put(Defect.NO_MULTIPLICATIVE_DECREASE, org.mrconf.transport.defects.sender.NoMultiplicativeDecrease::new)
            .put(Defect.DECREASE_ON_EVERY_CE_ACK, org.mrconf.transport.defects.sender.DecreaseOnEveryCeAck::new)
            .put(Defect.WINDOW_GROWTH_EXPONENTIAL, org.mrconf.transport.defects.sender.WindowGrowthExponential::new)
            .put(
                    Defect.DECREASE_SPACED_FROM_LAST_CE_REPORT,
                    org.mrconf.transport.defects.sender.DecreaseSpacedFromLastCeReport::new)
            .put(
                    Defect.CE_REPORT_GROWS_WINDOW_WITHIN_SRTT,
                    org.mrconf.transport.defects.sender.CeReportGrowsWindowWithinSrtt::new)
            .put(Defect.TAIL_PROBE_REPEATED, org.mrconf.transport.defects.sender.TailProbeRepeated::new)
            .put(
                    Defect.TAIL_PROBE_RESENT_ON_OLD_ENTROPY,
                    org.mrconf.transport.defects.sender.TailProbeResentOnOldEntropy::new)
            .put(Defect.REORDER_TOLERANCE_IGNORED, org.mrconf.transport.defects.sender.ReorderToleranceIgnored::new)
            .put(Defect.REORDER_TIME_FROM_SEND, org.mrconf.transport.defects.sender.ReorderTimeFromSend::new);

    /** The defects at {@link ConnectionSeam}: a connection's own state and its peers. */
    private static final Table<ConnectionSeam> CONNECTION = new Table<>(ConnectionSeam.CORRECT)
            .put(Defect.SAME_ENTROPY_ALL_PATHS, org.mrconf.transport.defects.connection.SameEntropyAllPaths::new)
            .put(Defect.IGNORE_INITIAL_PSN, org.mrconf.transport.defects.connection.IgnoreInitialPsn::new)
            .put(Defect.READ_WAIT_NEVER_TIMES_OUT, org.mrconf.transport.defects.connection.ReadWaitNeverTimesOut::new)
            .put(
                    Defect.MAXIMUM_CONNECTION_WINDOW_EXCEEDED,
                    org.mrconf.transport.defects.connection.MaximumConnectionWindowExceeded::new)
            .put(
                    Defect.RECEIVE_RING_GROWN_WITH_STALE_INDEX,
                    org.mrconf.transport.defects.connection.ReceiveRingGrownWithStaleIndex::new)
            .put(
                    Defect.MESSAGE_RING_GROWN_WITH_STALE_INDEX,
                    org.mrconf.transport.defects.connection.MessageRingGrownWithStaleIndex::new)
            .put(
                    Defect.FAIR_SHARE_COUNTS_READ_REQUESTS,
                    org.mrconf.transport.defects.connection.FairShareCountsReadRequests::new)
            .put(
                    Defect.FAIR_SHARE_COUNTS_IDLE_CONNECTIONS,
                    org.mrconf.transport.defects.connection.FairShareCountsIdleConnections::new)
            .put(Defect.FAIR_SHARE_NEVER_FORGETS, org.mrconf.transport.defects.connection.FairShareNeverForgets::new)
            .put(
                    Defect.FAIR_SHARE_DISCOUNTS_A_LONE_SENDER,
                    org.mrconf.transport.defects.connection.FairShareDiscountsALoneSender::new)
            .put(
                    Defect.UNKNOWN_CONNECTION_NACK_FLOOD,
                    org.mrconf.transport.defects.connection.UnknownConnectionNackFlood::new)
            .put(
                    Defect.UNKNOWN_CONNECTION_NACK_WITH_OWN_IDS,
                    org.mrconf.transport.defects.connection.UnknownConnectionNackWithOwnIds::new)
            .put(
                    Defect.UNKNOWN_CONNECTION_NACK_MATCHED_BY_LOCAL_ID,
                    org.mrconf.transport.defects.connection.UnknownConnectionNackMatchedByLocalId::new)
            .put(
                    Defect.UNKNOWN_CONNECTION_NACK_MATCHED_WITHOUT_PSN,
                    org.mrconf.transport.defects.connection.UnknownConnectionNackMatchedWithoutPsn::new)
            .put(Defect.NACK_QUEUED_BEHIND_ACK, org.mrconf.transport.defects.connection.NackQueuedBehindAck::new)
            .put(
                    Defect.REJECTED_MESSAGE_REJECTED_AGAIN,
                    org.mrconf.transport.defects.connection.RejectedMessageRejectedAgain::new)
            .put(
                    Defect.TEARDOWN_FORGETS_UNSTARTED_WORK,
                    org.mrconf.transport.defects.connection.TeardownForgetsUnstartedWork::new)
            .put(
                    Defect.TEARDOWN_FORGETS_WAITING_READ,
                    org.mrconf.transport.defects.connection.TeardownForgetsWaitingRead::new)
            .put(
                    Defect.WHOLLY_SENT_SOURCE_FAILS_CONNECTION,
                    org.mrconf.transport.defects.connection.WhollySentSourceFailsConnection::new)
            .put(
                    Defect.WHOLLY_SENT_SOURCE_COMPLETES_AT_INVALIDATION,
                    org.mrconf.transport.defects.connection.WhollySentSourceCompletesAtInvalidation::new)
            .put(Defect.FINISHED_ONLY_AT_DELIVERY, org.mrconf.transport.defects.connection.FinishedOnlyAtDelivery::new)
            .put(
                    Defect.PEER_MESSAGE_LIMIT_IGNORED,
                    org.mrconf.transport.defects.connection.PeerMessageLimitIgnored::new);

    /** The defects at {@link CompletionSeam}: completions and the responder side of a READ. */
    private static final Table<CompletionSeam> COMPLETION = new Table<>(CompletionSeam.CORRECT)
            .put(
                    Defect.COMPLETIONS_OUT_OF_MSN_ORDER,
                    org.mrconf.transport.defects.completion.CompletionsOutOfMsnOrder::new)
            .put(
                    Defect.HOL_BLOCKING_ACROSS_STREAMS,
                    org.mrconf.transport.defects.completion.HolBlockingAcrossStreams::new)
            .put(
                    Defect.ERROR_COMPLETION_OUT_OF_ORDER,
                    org.mrconf.transport.defects.completion.ErrorCompletionOutOfOrder::new)
            .put(
                    Defect.RECEIVE_COMPLETION_OVERTAKES_SILENT_MESSAGES,
                    org.mrconf.transport.defects.completion.ReceiveCompletionOvertakesSilentMessages::new)
            .put(
                    Defect.READ_RESPONSE_AGREEMENT_BEFORE_HANDLE,
                    org.mrconf.transport.defects.completion.ReadResponseAgreementBeforeHandle::new)
            .put(Defect.FAILURE_STATUS_UNIFORM, org.mrconf.transport.defects.completion.FailureStatusUniform::new)
            .put(
                    Defect.PARTLY_FILLED_RECEIVE_NEVER_FLUSHED,
                    org.mrconf.transport.defects.completion.PartlyFilledReceiveNeverFlushed::new)
            .put(
                    Defect.UNKNOWN_KEY_NACKED_AS_BOUNDS,
                    org.mrconf.transport.defects.completion.UnknownKeyNackedAsBounds::new)
            .put(Defect.IGNORE_REMOTE_READ_FLAG, org.mrconf.transport.defects.completion.IgnoreRemoteReadFlag::new)
            .put(
                    Defect.BOUNDS_CHECKED_BEFORE_ACCESS,
                    org.mrconf.transport.defects.completion.BoundsCheckedBeforeAccess::new)
            .put(Defect.EMPTY_RANGE_UNCHECKED, org.mrconf.transport.defects.completion.EmptyRangeUnchecked::new)
            .put(Defect.READ_RESPONSE_SHORT, org.mrconf.transport.defects.completion.ReadResponseShort::new)
            .put(
                    Defect.READ_COMPLETES_ON_LAST_SEGMENT,
                    org.mrconf.transport.defects.completion.ReadCompletesOnLastSegment::new)
            .put(
                    Defect.INVALIDATED_SINK_COMPLETES_SUCCESS,
                    org.mrconf.transport.defects.completion.InvalidatedSinkCompletesSuccess::new);

    /** The defects at {@link SchedulerSeam}: what is sent next, on which path, and what a timeout does. */
    private static final Table<SchedulerSeam> SCHEDULER = new Table<>(SchedulerSeam.CORRECT)
            .put(
                    Defect.INVALIDATION_MISSES_QUEUED_SENDS,
                    org.mrconf.transport.defects.scheduler.InvalidationMissesQueuedSends::new)
            .put(Defect.INVALIDATED_SOURCE_RESENT, org.mrconf.transport.defects.scheduler.InvalidatedSourceResent::new)
            .put(Defect.SPRAY_FIRST_PATH_ONLY, org.mrconf.transport.defects.scheduler.SprayFirstPathOnly::new)
            .put(Defect.SPRAY_ROUND_ROBIN_ONLY, org.mrconf.transport.defects.scheduler.SprayRoundRobinOnly::new)
            .put(
                    Defect.SPRAY_POINTER_MOVES_ON_TIES_ONLY,
                    org.mrconf.transport.defects.scheduler.SprayPointerMovesOnTiesOnly::new)
            .put(Defect.TIMEOUT_KEEPS_WINDOW, org.mrconf.transport.defects.scheduler.TimeoutKeepsWindow::new)
            .put(Defect.GO_BACK_N, org.mrconf.transport.defects.scheduler.GoBackN::new)
            .put(Defect.NO_REPATH_AFTER_RTO, org.mrconf.transport.defects.scheduler.NoRepathAfterRto::new)
            .put(
                    Defect.WAITING_PSN_RESENT_ON_TIMEOUT,
                    org.mrconf.transport.defects.scheduler.WaitingPsnResentOnTimeout::new)
            .put(Defect.NO_CONNECTION_TIMEOUT, org.mrconf.transport.defects.scheduler.NoConnectionTimeout::new)
            .put(
                    Defect.PATH_TIMER_ARMED_BY_CONNECTION_COUNT,
                    org.mrconf.transport.defects.scheduler.PathTimerArmedByConnectionCount::new)
            .put(
                    Defect.SENDER_COMPLETES_BEFORE_ACK,
                    org.mrconf.transport.defects.scheduler.SenderCompletesBeforeAck::new)
            .put(
                    Defect.INVALIDATED_UNSENT_SKIPPED,
                    org.mrconf.transport.defects.scheduler.InvalidatedUnsentSkipped::new)
            .put(Defect.CONNECTION_WINDOW_IGNORED, org.mrconf.transport.defects.scheduler.ConnectionWindowIgnored::new);

    /** The defects at {@link AckSeam}: what the sender does with ACKs and NACKs. */
    private static final Table<AckSeam> ACK = new Table<>(AckSeam.CORRECT)
            .put(Defect.RECEIVER_NOT_READY_FATAL, org.mrconf.transport.defects.ack.ReceiverNotReadyFatal::new)
            .put(Defect.RECEIVES_KEPT_AFTER_FAILURE, org.mrconf.transport.defects.ack.ReceivesKeptAfterFailure::new)
            .put(Defect.NACK_FIELDS_UNCHECKED, org.mrconf.transport.defects.ack.NackFieldsUnchecked::new)
            .put(Defect.STALE_NACK_FAILS_STREAM_HEAD, org.mrconf.transport.defects.ack.StaleNackFailsStreamHead::new)
            .put(Defect.REORDERED_ACK_COUNTED_INVALID, org.mrconf.transport.defects.ack.ReorderedAckCountedInvalid::new)
            .put(Defect.OUT_OF_WINDOW_RESENT_AT_ONCE, org.mrconf.transport.defects.ack.OutOfWindowResentAtOnce::new)
            .put(
                    Defect.NACK_CODE_CHECKED_AGAINST_OPCODE,
                    org.mrconf.transport.defects.ack.NackCodeCheckedAgainstOpcode::new)
            .put(Defect.ZERO_RETRY_AFTER_DROPPED, org.mrconf.transport.defects.ack.ZeroRetryAfterDropped::new)
            .put(Defect.NACK_MATCHED_BY_MSN_ALONE, org.mrconf.transport.defects.ack.NackMatchedByMsnAlone::new)
            .put(Defect.LATE_ACK_TAKEN_AS_NEW, org.mrconf.transport.defects.ack.LateAckTakenAsNew::new)
            .put(Defect.LATE_ACK_ENDS_BACKOFF, org.mrconf.transport.defects.ack.LateAckEndsBackoff::new)
            .put(Defect.LATE_ACK_RESETS_EXPIRY_COUNT, org.mrconf.transport.defects.ack.LateAckResetsExpiryCount::new)
            .put(Defect.LATE_ACK_HEALS_PATH, org.mrconf.transport.defects.ack.LateAckHealsPath::new)
            .put(Defect.RETRY_AFTER_IGNORED, org.mrconf.transport.defects.ack.RetryAfterIgnored::new)
            .put(Defect.WAITING_PSN_LOST_ON_GAP, org.mrconf.transport.defects.ack.WaitingPsnLostOnGap::new)
            .put(Defect.FINAL_NACK_RETRANSMITTED, org.mrconf.transport.defects.ack.FinalNackRetransmitted::new)
            .put(Defect.BOUNDS_ERROR_MISREPORTED, org.mrconf.transport.defects.ack.BoundsErrorMisreported::new)
            .put(
                    Defect.PATH_TIMER_NOT_RESTARTED_BEYOND_PATH_0,
                    org.mrconf.transport.defects.ack.PathTimerNotRestartedBeyondPath0::new)
            .put(
                    Defect.UNKNOWN_CONNECTION_FAILS_ONLY_MESSAGE,
                    org.mrconf.transport.defects.ack.UnknownConnectionFailsOnlyMessage::new)
            .put(
                    Defect.INVALIDATED_SOURCE_COMPLETES_SUCCESS,
                    org.mrconf.transport.defects.ack.InvalidatedSourceCompletesSuccess::new)
            .put(Defect.RATE_HINT_IGNORED, org.mrconf.transport.defects.ack.RateHintIgnored::new)
            .put(Defect.RATE_HINT_READ_AS_BYTES, org.mrconf.transport.defects.ack.RateHintReadAsBytes::new)
            .put(Defect.DECREASE_APPLIED_TO_ALL_PATHS, org.mrconf.transport.defects.ack.DecreaseAppliedToAllPaths::new)
            .put(Defect.CONNECTION_WINDOW_BLIND_TO_CE, org.mrconf.transport.defects.ack.ConnectionWindowBlindToCe::new)
            .put(
                    Defect.CONNECTION_DECREASE_SPACED_BY_MARKED_PATH,
                    org.mrconf.transport.defects.ack.ConnectionDecreaseSpacedByMarkedPath::new)
            .put(Defect.ONLY_FIRST_HOLE_LOST, org.mrconf.transport.defects.ack.OnlyFirstHoleLost::new)
            .put(Defect.FIRST_HOLE_LEFT_TO_THE_TIMER, org.mrconf.transport.defects.ack.FirstHoleLeftToTheTimer::new)
            .put(Defect.GAP_RESENDS_ON_EVERY_ACK, org.mrconf.transport.defects.ack.GapResendsOnEveryAck::new)
            .put(Defect.RATE_HINT_FLOOR_IGNORED, org.mrconf.transport.defects.ack.RateHintFloorIgnored::new)
            .put(Defect.UNHEALTHY_PATH_NOT_RECOVERED, org.mrconf.transport.defects.ack.UnhealthyPathNotRecovered::new)
            .put(Defect.ECHO_IGNORED, org.mrconf.transport.defects.ack.EchoIgnored::new)
            .put(Defect.HALF_WAY_PSN_TAKEN_AS_OLD, org.mrconf.transport.defects.ack.HalfWayPsnTakenAsOld::new)
            .put(Defect.EMPTY_READ_COMPLETES_ON_ACK, org.mrconf.transport.defects.ack.EmptyReadCompletesOnAck::new)
            .put(
                    Defect.NACKED_PSN_ACKNOWLEDGED_FIRST,
                    org.mrconf.transport.defects.ack.NackedPsnAcknowledgedFirst::new);

    private static final List<Table<?>> TABLES = List.of(OUTBOUND, SENDER, CONNECTION, COMPLETION, SCHEDULER, ACK);

    private DefectSeams() {}

    /** The seams that commit exactly {@code defects}; {@link TransportSeams#CORRECT} when none is active. */
    public static TransportSeams of(final Defects defects) {
        if (defects.isEmpty()) {
            return TransportSeams.CORRECT;
        }
        return new TransportSeams(
                OUTBOUND.chain(defects),
                SENDER.chain(defects),
                CONNECTION.chain(defects),
                COMPLETION.chain(defects),
                SCHEDULER.chain(defects),
                ACK.chain(defects));
    }

    /** Each defect committed at a transport seam, with the class that commits it. */
    static Map<Defect, Class<?>> seamClasses() {
        final Map<Defect, Class<?>> classes = new EnumMap<>(Defect.class);
        for (final Table<?> table : TABLES) {
            table.classesInto(classes);
        }
        return classes;
    }

    /** One seam's defects, each with the constructor of its class, which wraps the next seam. */
    private static final class Table<S> {
        private final Map<Defect, UnaryOperator<S>> wraps = new EnumMap<>(Defect.class);
        private final S correct;

        Table(final S correct) {
            this.correct = correct;
        }

        Table<S> put(final Defect defect, final UnaryOperator<S> wrap) {
            if (wraps.put(defect, wrap) != null) {
                throw new IllegalStateException(defect + " twice at one seam");
            }
            return this;
        }

        /** The correct seam wrapped by each active defect of this table, in catalogue order. */
        S chain(final Defects defects) {
            S seam = correct;
            for (final Defect defect : defects.active()) {
                final UnaryOperator<S> wrap = wraps.get(defect);
                if (wrap != null) {
                    seam = wrap.apply(seam);
                }
            }
            return seam;
        }

        void classesInto(final Map<Defect, Class<?>> classes) {
            wraps.forEach((defect, wrap) -> {
                if (classes.put(defect, wrap.apply(correct).getClass()) != null) {
                    throw new IllegalStateException(defect + " at two seams");
                }
            });
        }
    }
}

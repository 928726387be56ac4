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
import org.mrconf.transport.DecodeSeam;
import org.mrconf.transport.EndpointSeam;
import org.mrconf.transport.OutboundSeam;
import org.mrconf.transport.ReceiveSeam;
import org.mrconf.transport.SchedulerSeam;
import org.mrconf.transport.SenderSeam;
import org.mrconf.transport.TransportSeams;

/**
 * Builds the transport's seams for a set of active defects. Each defect committed inside the transport is one class,
 * named for it, in the subpackage of {@code org.mrconf.transport.defects} of its seam: it wraps the seam built so far and
 * changes only the decisions the defect gets wrong, forwarding the rest. Several defects active at one seam wrap one
 * another in catalogue order, so {@code --defect a,b} commits both. A defect in no table here is committed outside
 * {@code org.mrconf.transport}, by the agent or the soft DUT; {@code DefectSeamsTest} checks that every defect is one
 * or the other.
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
            .put(Defect.RTT_NOT_SMOOTHED, org.mrconf.transport.defects.sender.RttNotSmoothed::new)
            .put(Defect.NO_RTO_BACKOFF, org.mrconf.transport.defects.sender.NoRtoBackoff::new)
            .put(Defect.RTO_NOT_CLAMPED_TO_MAX, org.mrconf.transport.defects.sender.RtoNotClampedToMax::new)
            .put(Defect.RTO_CAPPED_AT_511_MS, org.mrconf.transport.defects.sender.RtoCappedAt511Ms::new)
            .put(
                    Defect.WINDOWS_GROW_WITHOUT_CONGESTION,
                    org.mrconf.transport.defects.sender.WindowsGrowWithoutCongestion::new)
            .put(Defect.NO_MULTIPLICATIVE_DECREASE, org.mrconf.transport.defects.sender.NoMultiplicativeDecrease::new)
            .put(Defect.DECREASE_ON_EVERY_CE_ACK, org.mrconf.transport.defects.sender.DecreaseOnEveryCeAck::new)
            .put(Defect.NO_ADDITIVE_INCREASE, org.mrconf.transport.defects.sender.NoAdditiveIncrease::new)
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
            .put(Defect.REORDER_TIME_FROM_SEND, org.mrconf.transport.defects.sender.ReorderTimeFromSend::new)
            .put(Defect.REORDER_TIME_NEVER_PASSES, org.mrconf.transport.defects.sender.ReorderTimeNeverPasses::new);

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
                    org.mrconf.transport.defects.connection.PeerMessageLimitIgnored::new)
            .put(
                    Defect.PEER_MESSAGE_LIMIT_BLIND_TO_NACKS,
                    org.mrconf.transport.defects.connection.PeerMessageLimitBlindToNacks::new);

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
            .put(Defect.RESPONSE_FIELDS_UNCHECKED, org.mrconf.transport.defects.completion.ResponseFieldsUnchecked::new)
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
            .put(Defect.INVALIDATED_RESPONSE_SENT, org.mrconf.transport.defects.scheduler.InvalidatedResponseSent::new)
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
            .put(
                    Defect.STALE_RETRANSMIT_NACK_COUNTED_INVALID,
                    org.mrconf.transport.defects.ack.StaleRetransmitNackCountedInvalid::new)
            .put(Defect.OVERTAKEN_NACK_IGNORED, org.mrconf.transport.defects.ack.OvertakenNackIgnored::new)
            .put(Defect.FAILED_RESPONSE_SENT_ON, org.mrconf.transport.defects.ack.FailedResponseSentOn::new)
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
            .put(
                    Defect.CONNECTION_SRTT_OF_ACKING_PATH,
                    org.mrconf.transport.defects.ack.ConnectionSrttOfAckingPath::new)
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

    /** The defects at {@link ReceiveSeam}: the receive path of data packets and READ requests, and the ACKs it answers with. */
    private static final Table<ReceiveSeam> RECEIVE = new Table<>(ReceiveSeam.CORRECT)
            .put(Defect.LAST_PATH_REJECTED, org.mrconf.transport.defects.receive.LastPathRejected::new)
            .put(Defect.FOUR_PATHS_ONLY, org.mrconf.transport.defects.receive.FourPathsOnly::new)
            .put(Defect.SHARED_RECEIVE_STATE, org.mrconf.transport.defects.receive.SharedReceiveState::new)
            .put(Defect.STREAM_BOUND_TO_PATH, org.mrconf.transport.defects.receive.StreamBoundToPath::new)
            .put(Defect.DROP_ON_ENTROPY_CHANGE, org.mrconf.transport.defects.receive.DropOnEntropyChange::new)
            .put(
                    Defect.ACK_ENTROPY_FROM_FIRST_PACKET,
                    org.mrconf.transport.defects.receive.AckEntropyFromFirstPacket::new)
            .put(Defect.DROP_CE_MARKED, org.mrconf.transport.defects.receive.DropCeMarked::new)
            .put(Defect.DROP_OUT_OF_ORDER, org.mrconf.transport.defects.receive.DropOutOfOrder::new)
            .put(Defect.LAST_STREAM_REJECTED, org.mrconf.transport.defects.receive.LastStreamRejected::new)
            .put(Defect.EIGHT_STREAMS_ONLY, org.mrconf.transport.defects.receive.EightStreamsOnly::new)
            .put(Defect.UNSIGNED_PSN_COMPARE, org.mrconf.transport.defects.receive.UnsignedPsnCompare::new)
            .put(Defect.RECEIVE_WINDOW_OFF_BY_ONE, org.mrconf.transport.defects.receive.ReceiveWindowOffByOne::new)
            .put(Defect.DUPLICATE_SACKED_PLACED, org.mrconf.transport.defects.receive.DuplicateSackedPlaced::new)
            .put(
                    Defect.OUT_OF_ORDER_DROPPED_WITH_ACK,
                    org.mrconf.transport.defects.receive.OutOfOrderDroppedWithAck::new)
            .put(Defect.REORDER_BUFFER, org.mrconf.transport.defects.receive.ReorderBuffer::new)
            .put(Defect.CUMULATIVE_OVER_GAP, org.mrconf.transport.defects.receive.CumulativeOverGap::new)
            .put(
                    Defect.WRITE_IGNORES_MESSAGE_OFFSET,
                    org.mrconf.transport.defects.receive.WriteIgnoresMessageOffset::new)
            .put(
                    Defect.WRITE_ADDRESS_FROM_FIRST_PACKET,
                    org.mrconf.transport.defects.receive.WriteAddressFromFirstPacket::new)
            .put(Defect.IMMEDIATE_TRUNCATED, org.mrconf.transport.defects.receive.ImmediateTruncated::new)
            .put(Defect.SEND_MATCHED_BY_MSN, org.mrconf.transport.defects.receive.SendMatchedByMsn::new)
            .put(Defect.RNR_RECORDS_PSN, org.mrconf.transport.defects.receive.RnrRecordsPsn::new)
            .put(
                    Defect.SEND_LENGTH_CHECKED_PER_PACKET,
                    org.mrconf.transport.defects.receive.SendLengthCheckedPerPacket::new)
            .put(Defect.READ_REQUEST_REEXECUTED, org.mrconf.transport.defects.receive.ReadRequestReexecuted::new)
            .put(Defect.UNCLAIMED_OPCODES_HANDLED, org.mrconf.transport.defects.receive.UnclaimedOpcodesHandled::new)
            .put(Defect.ZERO_LENGTH_NOT_COMPLETED, org.mrconf.transport.defects.receive.ZeroLengthNotCompleted::new)
            .put(Defect.STALE_PLACED, org.mrconf.transport.defects.receive.StalePlaced::new)
            .put(
                    Defect.OUTSTANDING_LIMIT_OFF_BY_ONE,
                    org.mrconf.transport.defects.receive.OutstandingLimitOffByOne::new)
            .put(Defect.CONFLICTING_SEGMENT_PLACED, org.mrconf.transport.defects.receive.ConflictingSegmentPlaced::new)
            .put(Defect.STALE_NOT_ACKED, org.mrconf.transport.defects.receive.StaleNotAcked::new)
            .put(Defect.IGNORE_REMOTE_WRITE_FLAG, org.mrconf.transport.defects.receive.IgnoreRemoteWriteFlag::new)
            .put(
                    Defect.IGNORE_REMOTE_WRITE_FLAG_FOR_IMMEDIATE,
                    org.mrconf.transport.defects.receive.IgnoreRemoteWriteFlagForImmediate::new)
            .put(Defect.BOUNDS_CHECKED_PER_PACKET, org.mrconf.transport.defects.receive.BoundsCheckedPerPacket::new)
            .put(Defect.BOUNDS_OFFSET_IN_32_BITS, org.mrconf.transport.defects.receive.BoundsOffsetIn32Bits::new)
            .put(
                    Defect.INVALIDATION_MISSES_POSTED_RECEIVES,
                    org.mrconf.transport.defects.receive.InvalidationMissesPostedReceives::new)
            .put(
                    Defect.SEND_OVERRUNS_RECEIVE_BUFFER,
                    org.mrconf.transport.defects.receive.SendOverrunsReceiveBuffer::new)
            .put(Defect.OUT_OF_WINDOW_NOT_NACKED, org.mrconf.transport.defects.receive.OutOfWindowNotNacked::new)
            .put(Defect.OUT_OF_WINDOW_PLACED, org.mrconf.transport.defects.receive.OutOfWindowPlaced::new)
            .put(Defect.FINAL_NACK_PSN_NOT_RECORDED, org.mrconf.transport.defects.receive.FinalNackPsnNotRecorded::new)
            .put(
                    Defect.RECEIVER_NOT_READY_PSN_RECORDED,
                    org.mrconf.transport.defects.receive.ReceiverNotReadyPsnRecorded::new)
            .put(Defect.NACK_RATE_LIMIT_MISSING, org.mrconf.transport.defects.receive.NackRateLimitMissing::new)
            .put(Defect.NO_IMMEDIATE_ACK_ON_GAP, org.mrconf.transport.defects.receive.NoImmediateAckOnGap::new)
            .put(Defect.DUPLICATE_NOT_ACKNOWLEDGED, org.mrconf.transport.defects.receive.DuplicateNotAcknowledged::new)
            .put(Defect.ACK_REQUEST_IGNORED, org.mrconf.transport.defects.receive.AckRequestIgnored::new)
            .put(Defect.ACK_DELAY_IN_MILLISECONDS, org.mrconf.transport.defects.receive.AckDelayInMilliseconds::new)
            .put(
                    Defect.ACK_COALESCING_COUNT_IGNORED,
                    org.mrconf.transport.defects.receive.AckCoalescingCountIgnored::new)
            .put(Defect.TIMESTAMP_ECHO_STUCK, org.mrconf.transport.defects.receive.TimestampEchoStuck::new)
            .put(
                    Defect.TIMESTAMP_ECHO_SKIPS_RETRANSMISSIONS,
                    org.mrconf.transport.defects.receive.TimestampEchoSkipsRetransmissions::new)
            .put(Defect.CE_COUNTED_PER_CONNECTION, org.mrconf.transport.defects.receive.CeCountedPerConnection::new)
            .put(Defect.CE_COUNTED_ONLY_WHEN_PLACED, org.mrconf.transport.defects.receive.CeCountedOnlyWhenPlaced::new)
            .put(
                    Defect.MESSAGE_LENGTH_LIMIT_UNCHECKED,
                    org.mrconf.transport.defects.receive.MessageLengthLimitUnchecked::new)
            .put(Defect.RNR_RETRY_HARD_CODED, org.mrconf.transport.defects.receive.RnrRetryHardCoded::new)
            .put(
                    Defect.RATE_HINT_MISSING_FROM_DUPLICATE_ACKS,
                    org.mrconf.transport.defects.receive.RateHintMissingFromDuplicateAcks::new)
            .put(Defect.READ_CLAIMED_BUT_MISSING, org.mrconf.transport.defects.receive.ReadClaimedButMissing::new)
            .put(Defect.HALF_SPACE_PSN_AHEAD, org.mrconf.transport.defects.receive.HalfSpacePsnAhead::new)
            .put(Defect.NO_ACK_AFTER_NACK, org.mrconf.transport.defects.receive.NoAckAfterNack::new)
            .put(
                    Defect.STREAM_CHECKED_BEFORE_WINDOW,
                    org.mrconf.transport.defects.receive.StreamCheckedBeforeWindow::new)
            .put(
                    Defect.KEY_CHECKED_BEFORE_MESSAGE_STATE,
                    org.mrconf.transport.defects.receive.KeyCheckedBeforeMessageState::new);

    /** The defects at {@link DecodeSeam}: how a received packet's bytes are judged before the endpoint acts on it. */
    private static final Table<DecodeSeam> DECODE = new Table<>(DecodeSeam.CORRECT)
            .put(Defect.ACCEPT_BAD_CRC, org.mrconf.transport.defects.decode.AcceptBadCrc::new)
            .put(Defect.STRICT_MINOR_VERSION, org.mrconf.transport.defects.decode.StrictMinorVersion::new)
            .put(Defect.ACCEPT_ANY_MAJOR_VERSION, org.mrconf.transport.defects.decode.AcceptAnyMajorVersion::new)
            .put(Defect.UNKNOWN_OPCODE_AS_WRITE, org.mrconf.transport.defects.decode.UnknownOpcodeAsWrite::new)
            .put(Defect.LENGTH_FROM_DATAGRAM, org.mrconf.transport.defects.decode.LengthFromDatagram::new)
            .put(Defect.SEGMENT_BOUNDS_UNCHECKED, org.mrconf.transport.defects.decode.SegmentBoundsUnchecked::new)
            .put(
                    Defect.READ_REQUEST_FIELDS_UNCHECKED,
                    org.mrconf.transport.defects.decode.ReadRequestFieldsUnchecked::new)
            .put(
                    Defect.READ_REQUEST_SEGMENT_CHECKED,
                    org.mrconf.transport.defects.decode.ReadRequestSegmentChecked::new)
            .put(Defect.ACCEPT_SACK_BIT0, org.mrconf.transport.defects.decode.AcceptSackBit0::new)
            .put(Defect.REJECT_NONZERO_RESERVED, org.mrconf.transport.defects.decode.RejectNonzeroReserved::new)
            .put(Defect.CRC_CHECKED_FIRST, org.mrconf.transport.defects.decode.CrcCheckedFirst::new)
            .put(
                    Defect.UNKNOWN_NACK_CODE_AS_REMOTE_ACCESS,
                    org.mrconf.transport.defects.decode.UnknownNackCodeAsRemoteAccess::new);

    /** The defects at {@link EndpointSeam}: the endpoint's own decisions: verbs, segmentation, and which received datagrams reach a connection. */
    private static final Table<EndpointSeam> ENDPOINT = new Table<>(EndpointSeam.CORRECT)
            .put(
                    Defect.INVALIDATED_KEY_STILL_VALID,
                    org.mrconf.transport.defects.endpoint.InvalidatedKeyStillValid::new)
            .put(
                    Defect.RECEIVE_WITHOUT_LOCAL_WRITE,
                    org.mrconf.transport.defects.endpoint.ReceiveWithoutLocalWrite::new)
            .put(Defect.FOREIGN_SOURCE_ACCEPTED, org.mrconf.transport.defects.endpoint.ForeignSourceAccepted::new)
            .put(Defect.FOREIGN_SOURCE_NACKED, org.mrconf.transport.defects.endpoint.ForeignSourceNacked::new)
            .put(Defect.FOREIGN_SOURCE_KEEPS_ALIVE, org.mrconf.transport.defects.endpoint.ForeignSourceKeepsAlive::new)
            .put(Defect.IPV6_RECEIVE_DROPPED, org.mrconf.transport.defects.endpoint.Ipv6ReceiveDropped::new)
            .put(
                    Defect.CONGESTION_REPORTED_UNCLAIMED,
                    org.mrconf.transport.defects.endpoint.CongestionReportedUnclaimed::new)
            .put(Defect.UNDERFILLED_SEGMENTS, org.mrconf.transport.defects.endpoint.UnderfilledSegments::new)
            .put(Defect.MTU_WITHOUT_IP_HEADER, org.mrconf.transport.defects.endpoint.MtuWithoutIpHeader::new)
            .put(Defect.NO_FLUSH_ON_DESTROY, org.mrconf.transport.defects.endpoint.NoFlushOnDestroy::new)
            .put(
                    Defect.FAILED_CONNECTION_STILL_RECEIVES,
                    org.mrconf.transport.defects.endpoint.FailedConnectionStillReceives::new)
            .put(Defect.ACK_REQUEST_ON_ACK_ANSWERED, org.mrconf.transport.defects.endpoint.AckRequestOnAckAnswered::new)
            .put(
                    Defect.PROBE_ECHOES_DATA_TIMESTAMP,
                    org.mrconf.transport.defects.endpoint.ProbeEchoesDataTimestamp::new)
            .put(Defect.PROBE_CE_NOT_COUNTED, org.mrconf.transport.defects.endpoint.ProbeCeNotCounted::new)
            .put(Defect.SINK_HANDLE_REUSED, org.mrconf.transport.defects.endpoint.SinkHandleReused::new)
            .put(Defect.MSN_PER_CONNECTION, org.mrconf.transport.defects.endpoint.MsnPerConnection::new)
            .put(Defect.RECEIVED_ECN_IGNORED, org.mrconf.transport.defects.endpoint.ReceivedEcnIgnored::new);

    private static final List<Table<?>> TABLES =
            List.of(OUTBOUND, SENDER, CONNECTION, COMPLETION, SCHEDULER, ACK, RECEIVE, DECODE, ENDPOINT);

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
                ACK.chain(defects),
                RECEIVE.chain(defects),
                DECODE.chain(defects),
                ENDPOINT.chain(defects));
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

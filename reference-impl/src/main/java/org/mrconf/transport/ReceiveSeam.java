package org.mrconf.transport;

/**
 * The decisions {@link InboundData} takes on a data packet or READ request: the path and stream checks, the window,
 * placement and the ACK policy, each a question the spec answers no to ({@link #CORRECT}). The reference's
 * self-validation defects (package {@code org.mrconf.transport.defects.receive}) answer yes to one each and forward
 * the rest.
 */
public interface ReceiveSeam {
    /**
     * Whether the endpoint does this (the spec: no): treats the last agreed path (id n-1) as unknown and drops its
     * packets (off by one).
     */
    default boolean lastPathRejected() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops packets on path ids 4 and above, so a connection has at
     * most 4 working paths.
     */
    default boolean fourPathsOnly() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): keeps one receive state (PSN window, ACK state) for all paths,
     * that of path 0.
     */
    default boolean sharedReceiveState() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops a packet of stream s that arrives on a path other than s
     * mod paths.
     */
    default boolean streamBoundToPath() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops a data packet whose UDP source port differs from the last
     * one seen on its path.
     */
    default boolean dropOnEntropyChange() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): sends a path's ACKs and NACKs from the source port of the path's
     * first packet, not its most recent one, so they never follow a re-pathed sender.
     */
    default boolean ackEntropyFromFirstPacket() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): counts a CE-marked data packet and then drops it instead of
     * processing it.
     */
    default boolean dropCeMarked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): discards every packet that is not the next in order on its path
     * (a go-back-N receiver that needs PFC).
     */
    default boolean dropOutOfOrder() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): rejects packets of the last agreed stream (off by one on the
     * stream count).
     */
    default boolean lastStreamRejected() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): rejects packets of stream ids 8 and above, so a connection has at
     * most 8 working streams.
     */
    default boolean eightStreamsOnly() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): compares a received PSN with the cumulative PSN as unsigned
     * numbers, so PSNs after the wrap look like duplicates.
     */
    default boolean unsignedPsnCompare() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): rejects cumulative + 255 as beyond the receive window. */
    default boolean receiveWindowOffByOne() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places a duplicate of a PSN already marked in the SACK bitmap
     * again.
     */
    default boolean duplicateSackedPlaced() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops every packet that is not the path's cumulative PSN but
     * acknowledges it, as a go-back-N receiver with NAKs does.
     */
    default boolean outOfOrderDroppedWithAck() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): holds a packet that arrives after a gap of its path in a reorder
     * buffer and places it only once the gap is filled, though its ACK already reports it.
     */
    default boolean reorderBuffer() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): advances the cumulative PSN past the newest PSN received, over
     * any gap before it.
     */
    default boolean cumulativeOverGap() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places every WRITE packet at the remote address, ignoring its
     * message offset.
     */
    default boolean writeIgnoresMessageOffset() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places the later packets of a WRITE at the remote address of the
     * message's first packet to arrive plus their offset, as a receiver that keeps RoCEv2's "address in the first
     * packet only" model would, where the draft places each packet by its own address (clause 7.1.1).
     */
    default boolean writeAddressFromFirstPacket() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): delivers only the low 16 bits of a WRITE_WITH_IMMEDIATE's
     * immediate.
     */
    default boolean immediateTruncated() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): matches a SEND to the receive indexed by its MSN instead of its
     * RSN.
     */
    default boolean sendMatchedByMsn() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): records the PSN of a SEND it refused with RECEIVER_NOT_READY as
     * received, so the retry is a duplicate.
     */
    default boolean rnrRecordsPsn() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks a SEND's packet, not its message length, against the
     * receive buffer.
     */
    default boolean sendLengthCheckedPerPacket() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): executes a duplicate READ_REQUEST again. */
    default boolean readRequestReexecuted() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): handles READ_REQUEST and WRITE_WITH_IMMEDIATE as a device
     * claiming read and immediate does, although it claims neither (the reference's core configuration): it answers a
     * READ and places an immediate WRITE, where clause 5.6.7 requires NACK INVALID_REQUEST.
     */
    default boolean unclaimedOpcodesHandled() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): never completes a received zero-length message. */
    default boolean zeroLengthNotCompleted() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): treats a packet of an already delivered message as a new message
     * and places it.
     */
    default boolean stalePlaced() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): tracks one MSN more than the declared
     * {@code maxOutstandingMessages} ({@code >} where {@code >=} belongs), so an MSN exactly that far ahead is not
     * NACKed INVALID_REQUEST (Table 5-13).
     */
    default boolean outstandingLimitOffByOne() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places a packet whose message length disagrees with the earlier
     * packets of its incomplete message, instead of NACKing it INVALID_REQUEST (Table 5-13).
     */
    default boolean conflictingSegmentPlaced() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): drops a stale packet without recording or acknowledging it. */
    default boolean staleNotAcked() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): places a WRITE into a region without REMOTE_WRITE. */
    default boolean ignoreRemoteWriteFlag() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks REMOTE_WRITE for WRITE but not for WRITE_WITH_IMMEDIATE,
     * as a second code path that forgot it.
     */
    default boolean ignoreRemoteWriteFlagForImmediate() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): bounds-checks each WRITE packet's own bytes instead of the whole
     * message range, so the in-bounds packets of an out-of-bounds message are placed.
     */
    default boolean boundsCheckedPerPacket() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): computes a WRITE's offset from its region's base in 32 bits, so a
     * message 4 GiB (or any multiple of it) above the region wraps back inside it and is placed there.
     */
    default boolean boundsOffsetIn32Bits() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): fills and completes a posted receive whose buffer's region was
     * invalidated.
     */
    default boolean invalidationMissesPostedReceives() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places a SEND longer than its receive buffer at the buffer's
     * address + offset, past the buffer's end, instead of refusing it.
     */
    default boolean sendOverrunsReceiveBuffer() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): drops a packet beyond the receive window silently instead of
     * NACKing it.
     */
    default boolean outOfWindowNotNacked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): places a WRITE that is beyond the receive window before NACKing
     * it PSN_OUT_OF_WINDOW.
     */
    default boolean outOfWindowPlaced() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): does not record the PSN of a packet NACKed with a final code, so
     * the path's cumulative PSN stalls on it.
     */
    default boolean finalNackPsnNotRecorded() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): records the PSN of a SEND NACKed RECEIVER_NOT_READY as received,
     * so its retry is a duplicate.
     */
    default boolean receiverNotReadyPsnRecorded() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): NACKs every later packet of a message it refused with a final
     * code again, with no rate limit (a SHOULD: WARN).
     */
    default boolean nackRateLimitMissing() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): coalesces the ACK of a packet that opens or extends a gap like an
     * in-order one, instead of acknowledging it at once.
     */
    default boolean noImmediateAckOnGap() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): counts a duplicate but sends no ACK for it. */
    default boolean duplicateNotAcknowledged() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): ignores ACK_REQUEST: such packets are coalesced like any other.
     */
    default boolean ackRequestIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): reads the declared ACK delay as milliseconds instead of
     * microseconds: a coalesced ACK waits 1000 times too long.
     */
    default boolean ackDelayInMilliseconds() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): ignores the ACK coalescing count: in-order packets are
     * acknowledged only when the ACK delay expires.
     */
    default boolean ackCoalescingCountIgnored() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): echoes the timestamp of a path's first packet in every later ACK.
     */
    default boolean timestampEchoStuck() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): keeps echoing the previous timestamp when the latest packet is a
     * retransmission.
     */
    default boolean timestampEchoSkipsRetransmissions() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): counts CE marks per connection instead of per path: a mark on one
     * path shows in the next ACK of every path.
     */
    default boolean ceCountedPerConnection() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): counts a CE mark only when the packet is placed: duplicates,
     * stale, out-of-window and NACKed packets are left out.
     */
    default boolean ceCountedOnlyWhenPlaced() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): never compares a message's length with its declared maximum: a
     * WRITE or READ_REQUEST longer than it gets BOUNDS or REMOTE_ACCESS from the region checks, a SEND
     * RECEIVER_NOT_READY or a length error, instead of NACK MESSAGE_TOO_LONG.
     */
    default boolean messageLengthLimitUnchecked() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): puts a fixed retry-after of 1 microsecond in every NACK
     * RECEIVER_NOT_READY instead of its declared retry interval.
     */
    default boolean rnrRetryHardCoded() {
        return false;
    }

    /** Whether the endpoint does this (the spec: no): sends the ACK of a duplicate with rate hint 0. */
    default boolean rateHintMissingFromDuplicateAcks() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): claims the read profile in {@code hello} but refuses every
     * READ_REQUEST with NACK INVALID_REQUEST: a claim whose behaviour is missing.
     */
    default boolean readClaimedButMissing() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a PSN exactly cumulative PSN + 2^31 as after the cumulative
     * PSN (the serial comparison's undefined point, {@code >} where {@code >=} belongs), so it NACKs it
     * PSN_OUT_OF_WINDOW instead of acknowledging a duplicate (Table 5-13).
     */
    default boolean halfSpacePsnAhead() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): takes a NACK as the rejected packet's answer: records its PSN but
     * schedules no ACK for it, even when the packet asked for one.
     */
    default boolean noAckAfterNack() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks the stream id before the PSN's place in the window: a
     * duplicate or out-of-window packet naming a stream the connection lacks gets NACK INVALID_REQUEST instead of a
     * duplicate's ACK or PSN_OUT_OF_WINDOW.
     */
    default boolean streamCheckedBeforeWindow() {
        return false;
    }

    /**
     * Whether the endpoint does this (the spec: no): checks the remote key and the region's access before any message
     * state: a stale retransmission, or a packet that disagrees with its message's first, into an invalidated or
     * foreign region gets NACK REMOTE_ACCESS instead of a stale ACK or INVALID_REQUEST.
     */
    default boolean keyCheckedBeforeMessageState() {
        return false;
    }

    /** The spec's answer to every decision. */
    ReceiveSeam CORRECT = new ReceiveSeam() {};

    /** Forwards every decision to the next seam; a defect extends it and overrides what it changes. */
    abstract class Forwarding implements ReceiveSeam {
        protected final ReceiveSeam next;

        protected Forwarding(final ReceiveSeam next) {
            this.next = next;
        }

        @Override
        public boolean lastPathRejected() {
            return next.lastPathRejected();
        }

        @Override
        public boolean fourPathsOnly() {
            return next.fourPathsOnly();
        }

        @Override
        public boolean sharedReceiveState() {
            return next.sharedReceiveState();
        }

        @Override
        public boolean streamBoundToPath() {
            return next.streamBoundToPath();
        }

        @Override
        public boolean dropOnEntropyChange() {
            return next.dropOnEntropyChange();
        }

        @Override
        public boolean ackEntropyFromFirstPacket() {
            return next.ackEntropyFromFirstPacket();
        }

        @Override
        public boolean dropCeMarked() {
            return next.dropCeMarked();
        }

        @Override
        public boolean dropOutOfOrder() {
            return next.dropOutOfOrder();
        }

        @Override
        public boolean lastStreamRejected() {
            return next.lastStreamRejected();
        }

        @Override
        public boolean eightStreamsOnly() {
            return next.eightStreamsOnly();
        }

        @Override
        public boolean unsignedPsnCompare() {
            return next.unsignedPsnCompare();
        }

        @Override
        public boolean receiveWindowOffByOne() {
            return next.receiveWindowOffByOne();
        }

        @Override
        public boolean duplicateSackedPlaced() {
            return next.duplicateSackedPlaced();
        }

        @Override
        public boolean outOfOrderDroppedWithAck() {
            return next.outOfOrderDroppedWithAck();
        }

        @Override
        public boolean reorderBuffer() {
            return next.reorderBuffer();
        }

        @Override
        public boolean cumulativeOverGap() {
            return next.cumulativeOverGap();
        }

        @Override
        public boolean writeIgnoresMessageOffset() {
            return next.writeIgnoresMessageOffset();
        }

        @Override
        public boolean writeAddressFromFirstPacket() {
            return next.writeAddressFromFirstPacket();
        }

        @Override
        public boolean immediateTruncated() {
            return next.immediateTruncated();
        }

        @Override
        public boolean sendMatchedByMsn() {
            return next.sendMatchedByMsn();
        }

        @Override
        public boolean rnrRecordsPsn() {
            return next.rnrRecordsPsn();
        }

        @Override
        public boolean sendLengthCheckedPerPacket() {
            return next.sendLengthCheckedPerPacket();
        }

        @Override
        public boolean readRequestReexecuted() {
            return next.readRequestReexecuted();
        }

        @Override
        public boolean unclaimedOpcodesHandled() {
            return next.unclaimedOpcodesHandled();
        }

        @Override
        public boolean zeroLengthNotCompleted() {
            return next.zeroLengthNotCompleted();
        }

        @Override
        public boolean stalePlaced() {
            return next.stalePlaced();
        }

        @Override
        public boolean outstandingLimitOffByOne() {
            return next.outstandingLimitOffByOne();
        }

        @Override
        public boolean conflictingSegmentPlaced() {
            return next.conflictingSegmentPlaced();
        }

        @Override
        public boolean staleNotAcked() {
            return next.staleNotAcked();
        }

        @Override
        public boolean ignoreRemoteWriteFlag() {
            return next.ignoreRemoteWriteFlag();
        }

        @Override
        public boolean ignoreRemoteWriteFlagForImmediate() {
            return next.ignoreRemoteWriteFlagForImmediate();
        }

        @Override
        public boolean boundsCheckedPerPacket() {
            return next.boundsCheckedPerPacket();
        }

        @Override
        public boolean boundsOffsetIn32Bits() {
            return next.boundsOffsetIn32Bits();
        }

        @Override
        public boolean invalidationMissesPostedReceives() {
            return next.invalidationMissesPostedReceives();
        }

        @Override
        public boolean sendOverrunsReceiveBuffer() {
            return next.sendOverrunsReceiveBuffer();
        }

        @Override
        public boolean outOfWindowNotNacked() {
            return next.outOfWindowNotNacked();
        }

        @Override
        public boolean outOfWindowPlaced() {
            return next.outOfWindowPlaced();
        }

        @Override
        public boolean finalNackPsnNotRecorded() {
            return next.finalNackPsnNotRecorded();
        }

        @Override
        public boolean receiverNotReadyPsnRecorded() {
            return next.receiverNotReadyPsnRecorded();
        }

        @Override
        public boolean nackRateLimitMissing() {
            return next.nackRateLimitMissing();
        }

        @Override
        public boolean noImmediateAckOnGap() {
            return next.noImmediateAckOnGap();
        }

        @Override
        public boolean duplicateNotAcknowledged() {
            return next.duplicateNotAcknowledged();
        }

        @Override
        public boolean ackRequestIgnored() {
            return next.ackRequestIgnored();
        }

        @Override
        public boolean ackDelayInMilliseconds() {
            return next.ackDelayInMilliseconds();
        }

        @Override
        public boolean ackCoalescingCountIgnored() {
            return next.ackCoalescingCountIgnored();
        }

        @Override
        public boolean timestampEchoStuck() {
            return next.timestampEchoStuck();
        }

        @Override
        public boolean timestampEchoSkipsRetransmissions() {
            return next.timestampEchoSkipsRetransmissions();
        }

        @Override
        public boolean ceCountedPerConnection() {
            return next.ceCountedPerConnection();
        }

        @Override
        public boolean ceCountedOnlyWhenPlaced() {
            return next.ceCountedOnlyWhenPlaced();
        }

        @Override
        public boolean messageLengthLimitUnchecked() {
            return next.messageLengthLimitUnchecked();
        }

        @Override
        public boolean rnrRetryHardCoded() {
            return next.rnrRetryHardCoded();
        }

        @Override
        public boolean rateHintMissingFromDuplicateAcks() {
            return next.rateHintMissingFromDuplicateAcks();
        }

        @Override
        public boolean readClaimedButMissing() {
            return next.readClaimedButMissing();
        }

        @Override
        public boolean halfSpacePsnAhead() {
            return next.halfSpacePsnAhead();
        }

        @Override
        public boolean noAckAfterNack() {
            return next.noAckAfterNack();
        }

        @Override
        public boolean streamCheckedBeforeWindow() {
            return next.streamCheckedBeforeWindow();
        }

        @Override
        public boolean keyCheckedBeforeMessageState() {
            return next.keyCheckedBeforeMessageState();
        }
    }
}

package org.mrconf.transport;

import org.mrconf.net.EcnCodepoint;
import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;
import org.mrconf.wire.PacketFlags;

/**
 * The receive path of data packets and READ requests: window check, the connection-state checks in the order of
 * clause 5.6.6, protection checks, placement on arrival, per-message byte counting and the ACK policy (spec sections
 * 6, 7, 8, 11). READs are {@link InboundReads}'s, refusals (final NACKs, stale and dropped packets) {@link Refusals}'s.
 * Nothing here allocates, except the completion records and READ responses created once per message.
 */
final class InboundData {
    private final EndpointState state;
    private final OutboundPackets out;
    private final CompletionDispatcher completions;
    private final RateHint rateHint;
    private final Refusals refusals;
    private final InboundReads reads;
    /** The decisions the spec fixes on this path; see {@link ReceiveSeam}. */
    private final ReceiveSeam seam;
    /** The protection decisions shared with the responder side of a READ; see {@link CompletionSeam}. */
    private final CompletionSeam completionSeam;

    private final long ackDelayNs;
    /** REORDER_BUFFER only: the packets each path holds back until its gap is filled. */
    private final java.util.Map<PathReceiver, java.util.List<byte[]>> held = new java.util.IdentityHashMap<>();

    private final org.mrconf.wire.PacketDecoder heldDecoder = new org.mrconf.wire.PacketDecoder();

    InboundData(
            final EndpointState state,
            final OutboundPackets out,
            final CompletionDispatcher completions,
            final RateHint rateHint) {
        this.state = state;
        this.out = out;
        this.completions = completions;
        this.rateHint = rateHint;
        this.refusals = new Refusals(state, out, completions);
        this.reads = new InboundReads(state, completions, refusals);
        this.seam = state.seams.receive();
        this.completionSeam = state.seams.completion();
        this.ackDelayNs = state.config.ackDelayNs() * (seam.ackDelayInMilliseconds() ? 1000 : 1);
    }

    void onData(
            final Connection connection,
            final int srcPort,
            final int ecn,
            final DecodedPacket packet,
            final long nowNs) {
        refusals.at(nowNs);
        final DataHeaderFlyweight header = packet.dataHeader();
        final int pathId = header.pathId();
        final int paths = connection.receivePaths.length;
        if (pathId >= paths
                || seam.lastPathRejected() && pathId == paths - 1
                || seam.fourPathsOnly() && pathId >= 4
                || seam.streamBoundToPath() && header.streamId() % paths != pathId) {
            state.counters.increment(Counter.RX_INVALID_PATH);
            return;
        }
        final PathReceiver path = connection.receivePaths[seam.sharedReceiveState() ? 0 : pathId];
        if (seam.dropOnEntropyChange() && path.lastEntropy != 0 && path.lastEntropy != srcPort) {
            path.lastEntropy = srcPort;
            return;
        }
        rateHint.onArrival(connection, packet.opcode(), ecn, nowNs);
        if (ecn == EcnCodepoint.CE && !seam.ceCountedOnlyWhenPlaced()) {
            // Counted before any connection-state check: the mark describes the path, not the packet's fate (8.2.2).
            if (seam.ceCountedPerConnection()) {
                for (final PathReceiver any : connection.receivePaths) {
                    any.ceSinceAck++;
                }
            } else {
                path.ceSinceAck++;
            }
            state.counters.increment(Counter.RX_CE_MARKED);
            if (seam.dropCeMarked()) {
                return;
            }
        }
        if (!(seam.timestampEchoStuck() && path.hasTimestamp)
                && !(seam.timestampEchoSkipsRetransmissions() && header.hasFlags(PacketFlags.RETRANSMISSION))) {
            path.lastTimestamp = header.transmitTimestamp();
            path.hasTimestamp = true;
        }
        path.heardFrom(srcPort, seam.ackEntropyFromFirstPacket());
        final long psn = header.psn();
        if (seam.dropOutOfOrder() && psn != path.window.cumulativePsn()) {
            return;
        }
        if (seam.streamCheckedBeforeWindow()
                && packet.opcode() != Opcode.READ_RESPONSE
                && !connection.hasStream(header.streamId())
                && path.window.classify(psn) != ReceiveWindow.Position.NEW) {
            refusals.reject(
                    connection, pathId, header, NackCode.INVALID_REQUEST, null, 0); // the defect: stream id first
            return;
        }
        switch (position(path, psn)) {
            case BEYOND_WINDOW -> {
                state.counters.increment(Counter.RX_OUT_OF_WINDOW);
                if (seam.outOfWindowPlaced()) {
                    placeBeyondWindow(packet, header);
                }
                if (seam.outOfWindowNotNacked()) {
                    return;
                }
                out.sendNack(
                        connection,
                        pathId,
                        psn,
                        NackCode.PSN_OUT_OF_WINDOW,
                        header.streamId(),
                        header.messageSequenceNumber(),
                        0);
                return;
            }
            case DUPLICATE -> {
                state.counters.increment(Counter.RX_DUPLICATE);
                if (seam.readRequestReexecuted() && packet.opcode() == Opcode.READ_REQUEST) {
                    reads.reexecute(connection, pathId, header);
                }
                if (!seam.duplicateNotAcknowledged()) {
                    out.sendAck(
                            connection,
                            path,
                            seam.rateHintMissingFromDuplicateAcks() ? 0 : rateHint.currentMbps(nowNs));
                }
                return;
            }
            default -> {}
        }
        final boolean inOrder = psn == path.window.cumulativePsn() && !path.window.hasGap();
        if (seam.outOfOrderDroppedWithAck() && psn != path.window.cumulativePsn()) {
            out.sendAck(connection, path, rateHint.currentMbps(nowNs));
            return;
        }
        if (seam.reorderBuffer() && psn != path.window.cumulativePsn()) {
            hold(path, packet);
            path.window.record(psn);
            out.sendAck(connection, path, rateHint.currentMbps(nowNs));
            return;
        }
        final boolean refusedBefore = seam.nackRateLimitMissing()
                && path.lastFinalNackCode > 0
                && path.lastFinalNackStream == header.streamId()
                && path.lastFinalNackMsn == header.messageSequenceNumber();
        final ReceiveOutcome outcome = deliver(connection, pathId, packet, header);
        if (seam.ceCountedOnlyWhenPlaced() && ecn == EcnCodepoint.CE && outcome == ReceiveOutcome.PLACED) {
            path.ceSinceAck++; // the defect: only a placed packet's mark is counted
        }
        if (refusedBefore && outcome == ReceiveOutcome.STALE) {
            // Defect NACK_RATE_LIMIT_MISSING: every later packet of a refused message is NACKed again.
            out.sendNack(
                    connection,
                    pathId,
                    psn,
                    NackCode.fromValue(path.lastFinalNackCode),
                    header.streamId(),
                    header.messageSequenceNumber(),
                    0);
        }
        if (outcome == ReceiveOutcome.DROPPED
                || outcome == ReceiveOutcome.NOT_READY
                        && !seam.rnrRecordsPsn()
                        && !seam.receiverNotReadyPsnRecorded()) {
            return; // not recorded: the sender retries this PSN (clause 7.3.2)
        }
        if (outcome == ReceiveOutcome.REJECTED && seam.finalNackPsnNotRecorded()) {
            return;
        }
        if (outcome == ReceiveOutcome.STALE && seam.staleNotAcked()) {
            return;
        }
        path.window.record(psn);
        if (seam.cumulativeOverGap() && Serial.before(path.window.cumulativePsn(), psn)) {
            path.window.skipTo(Serial.add(psn, 1));
        }
        if (seam.reorderBuffer()) {
            releaseHeld(connection, pathId, path);
        }
        if (outcome == ReceiveOutcome.REJECTED && seam.noAckAfterNack()) {
            return; // the defect: the NACK is taken as the packet's answer, so no ACK is scheduled for it
        }
        if ((!inOrder && !seam.noImmediateAckOnGap())
                || outcome == ReceiveOutcome.STALE
                || (header.hasFlags(PacketFlags.ACK_REQUEST) && !seam.ackRequestIgnored())
                || (++path.unacknowledged >= state.config.ackCoalescingCount() && !seam.ackCoalescingCountIgnored())) {
            out.sendAck(connection, path, rateHint.currentMbps(nowNs));
        } else if (path.unacknowledged == 1) {
            path.ackDeadlineNs = nowNs + ackDelayNs;
        }
        refusals.sendQueuedNack();
    }

    /** Where a PSN lies in the path's window, as the (possibly defective) receiver judges it. */
    private ReceiveWindow.Position position(final PathReceiver path, final long psn) {
        final ReceiveWindow.Position position = path.window.classify(psn);
        final long cumulative = path.window.cumulativePsn();
        if (seam.unsignedPsnCompare() && psn < cumulative) {
            return ReceiveWindow.Position.DUPLICATE;
        }
        if (seam.halfSpacePsnAhead() && Serial.distance(cumulative, psn) == 1L << 31) {
            return ReceiveWindow.Position.BEYOND_WINDOW; // the serial compare's undefined point taken as "after"
        }
        if (seam.receiveWindowOffByOne()
                && position == ReceiveWindow.Position.NEW
                && Serial.distance(cumulative, psn) == ReceiveWindow.SIZE - 1) {
            return ReceiveWindow.Position.BEYOND_WINDOW;
        }
        if (seam.duplicateSackedPlaced()
                && position == ReceiveWindow.Position.DUPLICATE
                && Serial.distance(cumulative, psn) < ReceiveWindow.SIZE) {
            return ReceiveWindow.Position.NEW;
        }
        return position;
    }

    /** REORDER_BUFFER: keeps a copy of a packet that arrived after a gap of its path. */
    private void hold(final PathReceiver path, final DecodedPacket packet) {
        final byte[] copy = new byte[packet.packetLength()];
        packet.buffer().get(packet.packetOffset(), copy);
        held.computeIfAbsent(path, p -> new java.util.ArrayList<>()).add(copy);
    }

    /** REORDER_BUFFER: places, in PSN order, the held packets that the cumulative PSN has now passed. */
    private void releaseHeld(final Connection connection, final int pathId, final PathReceiver path) {
        final java.util.List<byte[]> packets = held.get(path);
        if (packets == null || packets.isEmpty()) {
            return;
        }
        final DecodedPacket replay = new DecodedPacket();
        packets.sort(java.util.Comparator.comparingLong(b -> Serial.distance(path.window.cumulativePsn(), psnOf(b))));
        for (final java.util.Iterator<byte[]> it = packets.iterator(); it.hasNext(); ) {
            final byte[] bytes = it.next();
            if (Serial.before(psnOf(bytes), path.window.cumulativePsn())) {
                heldDecoder.decode(java.nio.ByteBuffer.wrap(bytes), 0, bytes.length, replay);
                deliver(connection, pathId, replay, replay.dataHeader());
                it.remove();
            }
        }
    }

    private static long psnOf(final byte[] packet) {
        return java.nio.ByteBuffer.wrap(packet).getInt(12) & Serial.MASK;
    }

    private ReceiveOutcome deliver(
            final Connection connection,
            final int pathId,
            final DecodedPacket packet,
            final DataHeaderFlyweight header) {
        final Opcode opcode = packet.opcode();
        if (opcode == Opcode.READ_RESPONSE) {
            return reads.placeResponse(connection, pathId, packet, header);
        }
        if (seam.keyCheckedBeforeMessageState() && opcode != Opcode.SEND && !keyGrantsAccess(header, opcode)) {
            return refusals.reject(
                    connection, pathId, header, NackCode.REMOTE_ACCESS, null, 0); // the defect: key first
        }
        final int streamId = header.streamId();
        final long msn = header.messageSequenceNumber();
        if (!connection.hasStream(streamId)
                || seam.lastStreamRejected() && streamId == connection.streamCount() - 1
                || seam.eightStreamsOnly() && streamId >= 8) {
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0);
        }
        final StreamReceiveState stream = connection.receiveStreamForPacket(streamId);
        if (stream == null) {
            return refusals.dropped();
        }
        if (stream.isDelivered(msn) && !seam.stalePlaced()) {
            return refusals.finished(connection, pathId, header);
        }
        if (stream.isBeyondTracking(msn) && !(seam.outstandingLimitOffByOne() && stream.isAtTrackingLimit(msn))) {
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0);
        }
        if (!stream.ensureCovers(msn)) {
            return refusals.dropped();
        }
        final int index = stream.messageIndex(msn);
        final byte messageState = stream.messageState[index];
        if (messageState == StreamReceiveState.COMPLETE) {
            return refusals.finished(connection, pathId, header);
        }
        if (messageState == StreamReceiveState.PARTIAL
                && !seam.conflictingSegmentPlaced()
                && (stream.messageOpcode[index] != opcode
                        || stream.messageLength[index] != header.messageLength()
                        || opcode == Opcode.WRITE_WITH_IMMEDIATE
                                && stream.messageImmediate[index] != header.immediate())) {
            // Packets of one message must agree (Table 5-13); the first to arrive set the values.
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0);
        }
        if (opcode != Opcode.SEND
                && header.messageLength() > state.config.maxMessageLengthBytes()
                && !seam.messageLengthLimitUnchecked()) {
            // Longer than the declared maximum (Table 5-13, clause 5.6.6 step 7): before any key or region check.
            // The message is finished failed, so later messages of the stream still complete in MSN order.
            return refusals.reject(connection, pathId, header, NackCode.MESSAGE_TOO_LONG, stream, index);
        }
        if (!offered(opcode)) {
            // Clause 5.6.7: an opcode of a profile this endpoint does not claim, refused at step 8 of clause 5.6.6.
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, stream, index);
        }
        return switch (opcode) {
            case WRITE, WRITE_WITH_IMMEDIATE -> placeWrite(connection, pathId, packet, header, stream, index);
            case SEND -> placeSend(connection, pathId, packet, header, stream, index);
            case READ_REQUEST ->
                seam.readClaimedButMissing()
                        ? refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, stream, index)
                        : reads.acceptRequest(connection, pathId, header, stream, index);
            default -> throw new IllegalStateException("not a data opcode: " + opcode);
        };
    }

    /** Whether the endpoint offers the profile of {@code opcode}, unless a defect handles it regardless. */
    private boolean offered(final Opcode opcode) {
        return switch (opcode) {
            case READ_REQUEST -> state.config.offers(Feature.READ) || seam.unclaimedOpcodesHandled();
            case WRITE_WITH_IMMEDIATE -> state.config.offers(Feature.IMMEDIATE) || seam.unclaimedOpcodesHandled();
            default -> true;
        };
    }

    private ReceiveOutcome placeWrite(
            final Connection connection,
            final int pathId,
            final DecodedPacket packet,
            final DataHeaderFlyweight header,
            final StreamReceiveState stream,
            final int index) {
        final MemoryRegion region = state.regions.get((int) header.remoteKey());
        if (region == null) {
            return refusals.reject(connection, pathId, header, unknownKeyCode(), stream, index);
        }
        if (completionSeam.boundsCheckedBeforeAccess()
                && !region.contains(header.remoteAddress(), header.messageLength())) {
            return refusals.reject(
                    connection, pathId, header, NackCode.BOUNDS, stream, index); // the defect: bounds first
        }
        if (!region.isValid() || !mayWrite(region, packet.opcode())) {
            return refusals.reject(connection, pathId, header, NackCode.REMOTE_ACCESS, stream, index);
        }
        final boolean continuing = stream.messageState[index] == StreamReceiveState.PARTIAL;
        final long address = seam.writeAddressFromFirstPacket() && continuing
                ? stream.messageAddress[index] // the defect: the first packet's address for the whole message
                : header.remoteAddress();
        final long start = address + (seam.writeIgnoresMessageOffset() ? 0 : header.messageOffset());
        final boolean inBounds = seam.boundsCheckedPerPacket()
                ? region.contains(start, packet.payloadLength())
                : seam.boundsOffsetIn32Bits()
                        ? containsIn32Bits(region, header.remoteAddress(), header.messageLength())
                        : region.contains(header.remoteAddress(), header.messageLength());
        if (!inBounds && !(completionSeam.emptyRangeUnchecked() && header.messageLength() == 0)) {
            return refusals.reject(
                    connection, pathId, header, NackCode.BOUNDS, stream, index); // whole message (11.1.3)
        }
        if (!begin(
                stream,
                index,
                packet.opcode(),
                header,
                packet.opcode() == Opcode.WRITE_WITH_IMMEDIATE
                        ? (seam.immediateTruncated() ? header.immediate() & 0xFFFF : header.immediate())
                        : 0,
                isMultiPacket(packet, header))) {
            return refusals.dropped();
        }
        if (!continuing) {
            stream.messageAddress[index] = header.remoteAddress();
        }
        place(state.counters, packet, region, region.indexOf(start));
        return countBytes(connection, header.streamId(), stream, index, header.messageOffset(), packet.payloadLength());
    }

    private ReceiveOutcome placeSend(
            final Connection connection,
            final int pathId,
            final DecodedPacket packet,
            final DataHeaderFlyweight header,
            final StreamReceiveState stream,
            final int index) {
        final long rsn = seam.sendMatchedByMsn() ? header.messageSequenceNumber() : header.receiveSequenceNumber();
        final boolean continuing = stream.messageState[index] == StreamReceiveState.PARTIAL;
        if (continuing && stream.messageRsn[index] != rsn) {
            // One message, one RSN: the agreement row of Table 5-13 (step 6 of clause 5.6.6). The packet is refused,
            // the message keeps its first packet's values and is not finished by it.
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0);
        }
        if (!continuing && stream.isReceiveUsed(rsn)) {
            // A new message naming a receive that another message already used or holds (clause 7.3.1):
            // one receive is completed once, and no two messages share its buffer.
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, stream, index);
        }
        if (!continuing && !stream.isReceivePosted(rsn)) {
            state.counters.increment(Counter.REJECT_RECEIVER_NOT_READY);
            out.sendNack(
                    connection,
                    pathId,
                    header.psn(),
                    NackCode.RECEIVER_NOT_READY,
                    header.streamId(),
                    header.messageSequenceNumber(),
                    seam.rnrRetryHardCoded() ? 1 : state.config.receiverNotReadyRetryNs() / 1000); // the declared value
            return ReceiveOutcome.NOT_READY;
        }
        final int receive = stream.receiveIndex(rsn);
        final long checkedLength = seam.sendLengthCheckedPerPacket()
                ? header.messageOffset() + packet.payloadLength()
                : header.messageLength();
        if (checkedLength > stream.receiveLength[receive] && !seam.sendOverrunsReceiveBuffer()) {
            // The receive is consumed with a length error (clause 7.3.3); its completion keeps MSN order.
            consume(stream, index, header, rsn);
            return refusals.reject(connection, pathId, header, NackCode.MESSAGE_TOO_LONG, stream, index);
        }
        final MemoryRegion region = stream.receiveRegion[receive];
        if (!region.isValid() && !seam.invalidationMissesPostedReceives()) {
            consume(stream, index, header, rsn);
            return refusals.reject(
                    connection,
                    pathId,
                    header,
                    NackCode.REMOTE_ACCESS,
                    stream,
                    index,
                    WorkCompletionStatus
                            .LOCAL_PROTECTION_ERROR); // the receive's buffer was invalidated (clause 11.1.4)
        }
        final long target = stream.receiveAddress[receive] + header.messageOffset();
        if (!region.contains(target, packet.payloadLength())) {
            // Only reachable with SEND_OVERRUNS_RECEIVE_BUFFER: even that device stays inside the region's memory.
            return refusals.reject(connection, pathId, header, NackCode.MESSAGE_TOO_LONG, stream, index);
        }
        if (!continuing) {
            if (!begin(stream, index, Opcode.SEND, header, 0, isMultiPacket(packet, header))) {
                return refusals.dropped();
            }
            stream.messageRsn[index] = rsn;
            stream.holdReceive(rsn);
        }
        place(state.counters, packet, region, region.indexOf(target));
        return countBytes(connection, header.streamId(), stream, index, header.messageOffset(), packet.payloadLength());
    }

    /** Makes a SEND that will fail at once the user of its receive, so that the receive completes with it. */
    private static void consume(
            final StreamReceiveState stream, final int index, final DataHeaderFlyweight header, final long rsn) {
        if (stream.messageState[index] == StreamReceiveState.EMPTY) {
            stream.occupy(index, Opcode.SEND, header.messageLength(), 0);
            stream.messageRsn[index] = rsn;
            stream.holdReceive(rsn);
        }
    }

    /**
     * Defect BOUNDS_OFFSET_IN_32_BITS: the message's offset from the region's base kept in an int, so an address 4 GiB
     * above the base wraps back to a small offset.
     */
    private static boolean containsIn32Bits(final MemoryRegion region, final long start, final long byteCount) {
        final int offset = (int) (start - region.address());
        return offset >= 0 && byteCount >= 0 && offset + byteCount <= region.length();
    }

    /** Defect OUT_OF_WINDOW_PLACED: a WRITE's bytes go to memory before the window check refuses it. */
    private void placeBeyondWindow(final DecodedPacket packet, final DataHeaderFlyweight header) {
        if (packet.opcode() != Opcode.WRITE) {
            return;
        }
        final MemoryRegion region = state.regions.get((int) header.remoteKey());
        final long start = header.remoteAddress() + header.messageOffset();
        if (region != null && region.isValid() && region.contains(start, packet.payloadLength())) {
            place(state.counters, packet, region, region.indexOf(start));
        }
    }

    /** KEY_CHECKED_BEFORE_MESSAGE_STATE: whether the key names a valid region that grants the opcode's access. */
    private boolean keyGrantsAccess(final DataHeaderFlyweight header, final Opcode opcode) {
        final MemoryRegion region = state.regions.get((int) header.remoteKey());
        return region != null
                && region.isValid()
                && AccessFlags.allows(
                        region.access(),
                        opcode == Opcode.READ_REQUEST ? AccessFlags.REMOTE_READ : AccessFlags.REMOTE_WRITE);
    }

    /** The code for a key that names no region: REMOTE_ACCESS (clause 11.1.1). */
    private NackCode unknownKeyCode() {
        return completionSeam.unknownKeyNackedAsBounds() ? NackCode.BOUNDS : NackCode.REMOTE_ACCESS;
    }

    /** Whether the region lets the network write into it (clause 11.1.2). */
    private boolean mayWrite(final MemoryRegion region, final Opcode opcode) {
        return AccessFlags.allows(region.access(), AccessFlags.REMOTE_WRITE)
                || seam.ignoreRemoteWriteFlag()
                || (seam.ignoreRemoteWriteFlagForImmediate() && opcode == Opcode.WRITE_WITH_IMMEDIATE);
    }

    /**
     * Takes the message's slot into use at its first packet; with {@code tracked}, also starts counting its
     * bytes. False if the budget allows no tracker: the caller drops the packet.
     */
    static boolean begin(
            final StreamReceiveState stream,
            final int index,
            final Opcode opcode,
            final DataHeaderFlyweight header,
            final long immediate,
            final boolean tracked) {
        if (stream.messageState[index] == StreamReceiveState.EMPTY) {
            if (tracked && !stream.trackSegments(index, header.messageLength())) {
                return false;
            }
            stream.occupy(index, opcode, header.messageLength(), immediate);
        }
        return true;
    }

    /** Copies a packet's payload into a region at {@code index} and counts the bytes placed. */
    static void place(final Counters counters, final DecodedPacket packet, final MemoryRegion region, final int index) {
        final int length = packet.payloadLength();
        if (length > 0) {
            region.memory().put(index, packet.buffer(), packet.payloadIndex(), length);
            counters.add(Counter.BYTES_PLACED, length);
        }
    }

    private ReceiveOutcome countBytes(
            final Connection connection,
            final int streamId,
            final StreamReceiveState stream,
            final int index,
            final long offset,
            final int bytes) {
        final SegmentTracker segments = stream.messageSegments[index];
        if (segments == null) {
            // A message carried whole by one packet needs no tracker: it is complete.
            if (!(seam.zeroLengthNotCompleted() && stream.messageLength[index] == 0)) {
                completions.finishReceived(connection, streamId, stream, index, WorkCompletionStatus.SUCCESS);
            }
            return ReceiveOutcome.PLACED;
        }
        if (!segments.mark(offset, bytes)) {
            return refusals.dropped(); // more disjoint pieces than one message may hold; the sender retries
        }
        if (segments.isComplete() && !(seam.zeroLengthNotCompleted() && stream.messageLength[index] == 0)) {
            completions.finishReceived(connection, streamId, stream, index, WorkCompletionStatus.SUCCESS);
        }
        return ReceiveOutcome.PLACED;
    }

    /** Whether the message needs more packets than this first one to arrive, so its bytes must be counted. */
    private static boolean isMultiPacket(final DecodedPacket packet, final DataHeaderFlyweight header) {
        return header.messageOffset() != 0 || packet.payloadLength() != header.messageLength();
    }
}

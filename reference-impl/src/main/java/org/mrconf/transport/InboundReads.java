package org.mrconf.transport;

import org.mrconf.wire.DataHeaderFlyweight;
import org.mrconf.wire.DecodedPacket;
import org.mrconf.wire.NackCode;
import org.mrconf.wire.Opcode;

/**
 * The READ side of the receive path (spec section 7.4): as responder, a READ_REQUEST is checked against its region
 * and answered by a READ response queued for sending (clause 7.4.1, executed once, clause 7.4.3); as requester, a
 * READ_RESPONSE is matched to its READ by sink handle, stale when the handle names no READ in progress, and placed
 * at its sink on arrival (clauses 5.6.6, 7.4.2). {@link InboundData} has already checked the window, duplicates and,
 * for a READ_REQUEST, the stream and message state.
 */
final class InboundReads {
    /** The decisions the spec fixes here; see {@link CompletionSeam}. */
    private final CompletionSeam seam;

    private final EndpointState state;
    private final CompletionDispatcher completions;
    private final Refusals refusals;

    InboundReads(final EndpointState state, final CompletionDispatcher completions, final Refusals refusals) {
        this.state = state;
        this.completions = completions;
        this.refusals = refusals;
        this.seam = state.seams.completion();
    }

    ReceiveOutcome acceptRequest(
            final Connection connection,
            final int pathId,
            final DataHeaderFlyweight header,
            final StreamReceiveState stream,
            final int index) {
        final MemoryRegion region = state.regions.get((int) header.remoteKey());
        if (region == null) {
            return refusals.reject(
                    connection,
                    pathId,
                    header,
                    (seam.unknownKeyNackedAsBounds() ? NackCode.BOUNDS : NackCode.REMOTE_ACCESS),
                    stream,
                    index);
        }
        if (seam.boundsCheckedBeforeAccess() && !region.contains(header.remoteAddress(), header.messageLength())) {
            return refusals.reject(
                    connection, pathId, header, NackCode.BOUNDS, stream, index); // the defect: bounds first
        }
        if (!region.isValid()
                || !(AccessFlags.allows(region.access(), AccessFlags.REMOTE_READ) || seam.remoteReadFlagIgnored())) {
            return refusals.reject(connection, pathId, header, NackCode.REMOTE_ACCESS, stream, index);
        }
        if (!region.contains(header.remoteAddress(), header.messageLength())
                && !(seam.emptyRangeUnchecked() && header.messageLength() == 0)) {
            return refusals.reject(connection, pathId, header, NackCode.BOUNDS, stream, index);
        }
        if (connection.sendQueue.size() >= state.config.maxOutstandingMessages()) {
            return refusals.dropped(); // a peer asking faster than we can answer must not grow the queue without bound
        }
        queueResponse(connection, pathId, header, region);
        InboundData.begin(stream, index, Opcode.READ_REQUEST, header, 0, false);
        completions.finishReceived(connection, header.streamId(), stream, index, WorkCompletionStatus.SUCCESS);
        return ReceiveOutcome.PLACED;
    }

    private void queueResponse(
            final Connection connection,
            final int pathId,
            final DataHeaderFlyweight header,
            final MemoryRegion region) {
        final long length = header.messageLength() - (seam.readResponseShort() && header.messageLength() > 0 ? 1 : 0);
        final SendMessage response = new SendMessage(
                0,
                Opcode.READ_RESPONSE,
                header.streamId(),
                header.messageSequenceNumber(),
                header.sinkHandle(),
                region,
                header.remoteAddress(),
                length,
                0,
                0,
                0,
                state.config.maxPayload(Opcode.READ_RESPONSE.headerLength()));
        response.requestPathId = pathId;
        response.requestPsn = header.psn();
        connection.sendQueue.addLast(response);
    }

    /** READ_REQUEST_REEXECUTED: answers a duplicate READ_REQUEST as if it were new. */
    void reexecute(final Connection connection, final int pathId, final DataHeaderFlyweight header) {
        final MemoryRegion region = state.regions.get((int) header.remoteKey());
        if (region != null && region.isValid() && region.contains(header.remoteAddress(), header.messageLength())) {
            queueResponse(connection, pathId, header, region);
        }
    }

    ReceiveOutcome placeResponse(
            final Connection connection,
            final int pathId,
            final DecodedPacket packet,
            final DataHeaderFlyweight header) {
        final SendMessage read = connection.readsBySink.get((int) header.sinkHandle());
        if (read == null) {
            if (seam.readResponseComparedWithFinishedRead() && disagreesWithFinishedRead(connection, header)) {
                return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0); // the defect
            }
            return refusals.stale(); // the READ finished or failed already, whatever the packet carries (clause 5.6.6)
        }
        if (!read.isFullySegmented()) {
            // No READ_REQUEST has gone out yet, so no READ is in progress under this handle (clause 7.4.4): stale, as
            // for a handle never used, and a guessed sink handle never reaches the buffer.
            return refusals.stale();
        }
        if (!read.localRegion.isValid()) {
            // The sink is gone: the READ fails, and this response and any later one are stale (clause 11.1.7).
            completions.finishSend(
                    connection,
                    read,
                    seam.invalidatedSinkCompletesSuccess()
                            ? WorkCompletionStatus.SUCCESS
                            : WorkCompletionStatus.LOCAL_PROTECTION_ERROR);
            return refusals.stale();
        }
        if ((read.streamId != header.streamId()
                        || read.msn != header.messageSequenceNumber()
                        || read.length != header.messageLength())
                && !seam.responseFieldsUnchecked()) {
            return refusals.reject(connection, pathId, header, NackCode.INVALID_REQUEST, null, 0);
        }
        InboundData.place(
                state.counters,
                packet,
                read.localRegion,
                read.localRegion.indexOf(read.localAddress + header.messageOffset()));
        if (!read.placed.mark(header.messageOffset(), packet.payloadLength())) {
            return refusals.dropped();
        }
        if (read.placed.isComplete()
                || seam.readCompletesOnLastSegment()
                        && header.messageOffset() + packet.payloadLength() == read.length) {
            completions.finishSend(connection, read, WorkCompletionStatus.SUCCESS);
        }
        return ReceiveOutcome.PLACED;
    }

    /** When the seam says so (never, as the spec says): compares with the finished READ its sink handle named. */
    private static boolean disagreesWithFinishedRead(final Connection connection, final DataHeaderFlyweight header) {
        final SendMessage finished = connection.finishedReadsBySink.get((int) header.sinkHandle());
        return finished != null
                && (finished.streamId != header.streamId()
                        || finished.msn != header.messageSequenceNumber()
                        || finished.length != header.messageLength());
    }
}

package org.mrconf.transport;

import org.mrconf.wire.Opcode;

/**
 * One message on its way out: a posted WRITE, WRITE_WITH_IMMEDIATE, SEND or READ request, or a READ
 * response this endpoint owes its peer. It knows how it is cut into packets and how many are
 * acknowledged; the completion follows from that (spec clause 7.5.4).
 */
final class SendMessage {
    final long workRequestId;
    final Opcode opcode;
    final int streamId;
    final long msn;
    /** RSN for SEND; sink handle for READ_REQUEST and READ_RESPONSE. */
    final long matchValue;
    /** Where the payload comes from (WRITE, SEND, READ_RESPONSE) or goes to (READ sink). */
    final MemoryRegion localRegion;

    final long localAddress;
    final long length;
    final long remoteAddress;
    final int remoteKey;
    final long immediate;
    final int payloadPerPacket;
    final int packetCount;

    long nextOffset;
    int packetsSent;
    int packetsAcked;
    /** READ requester: which response bytes have been placed (created with the READ). */
    final SegmentTracker placed;

    WorkCompletionStatus status;
    /** READ_RESPONSE: where its READ_REQUEST came from, to NACK it if the region goes away (clause 11.1.4). */
    int requestPathId;

    long requestPsn;

    SendMessage(
            final long workRequestId,
            final Opcode opcode,
            final int streamId,
            final long msn,
            final long matchValue,
            final MemoryRegion localRegion,
            final long localAddress,
            final long length,
            final long remoteAddress,
            final int remoteKey,
            final long immediate,
            final int payloadPerPacket) {
        this.workRequestId = workRequestId;
        this.opcode = opcode;
        this.streamId = streamId;
        this.msn = msn;
        this.matchValue = matchValue;
        this.localRegion = localRegion;
        this.localAddress = localAddress;
        this.length = length;
        this.remoteAddress = remoteAddress;
        this.remoteKey = remoteKey;
        this.immediate = immediate;
        this.payloadPerPacket = payloadPerPacket;
        this.packetCount = opcode == Opcode.READ_REQUEST || length == 0
                ? 1
                : (int) ((length + payloadPerPacket - 1) / payloadPerPacket);
        this.placed = opcode == Opcode.READ_REQUEST ? new SegmentTracker(length) : null;
    }

    /** Whether every packet has been sent at least once. */
    boolean isFullySegmented() {
        return packetsSent == packetCount;
    }

    /** Payload bytes of the next new packet. */
    int nextPayloadLength() {
        if (opcode == Opcode.READ_REQUEST) {
            return 0;
        }
        return (int) Math.min(payloadPerPacket, length - nextOffset);
    }

    /** Whether it has finished, successfully or not; a READ finishes when its data is in place. */
    boolean isDone() {
        return status != null;
    }

    /** Whether the application waits for a completion (READ responses are the endpoint's own). */
    boolean completesToApplication() {
        return opcode != Opcode.READ_RESPONSE;
    }

    WorkCompletionType completionType() {
        return switch (opcode) {
            case WRITE -> WorkCompletionType.WRITE;
            case WRITE_WITH_IMMEDIATE -> WorkCompletionType.WRITE_WITH_IMMEDIATE;
            case SEND -> WorkCompletionType.SEND;
            case READ_REQUEST -> WorkCompletionType.READ;
            default -> throw new IllegalStateException("no completion for " + opcode);
        };
    }
}

package org.mrconf.transport;

import org.mrconf.wire.Opcode;

/**
 * The receiving half of one stream: the posted receives, indexed by RSN (spec clause 7.3.1), and the
 * messages arriving out of order, indexed by MSN, until their completions can leave in MSN order
 * (clauses 7.5.1, 7.5.2). Both are rings preallocated at first use of the stream.
 */
final class StreamReceiveState {
    static final byte EMPTY = 0;
    static final byte PARTIAL = 1;
    static final byte COMPLETE = 2;
    /** messageRsn of a message that consumed no receive (not a SEND, or a SEND refused before matching). */
    static final long NO_RSN = -1;

    // Posted receives, by RSN.
    private final int receiveMask;
    final long[] receiveWorkRequestId;
    final MemoryRegion[] receiveRegion;
    final long[] receiveAddress;
    final int[] receiveLength;
    /** RSN the next posted receive gets. */
    long nextRsnToPost;
    /** Lowest RSN whose receive has not been retired by a delivered completion. */
    long oldestLiveRsn;

    // Messages, by MSN.
    private final int messageMask;
    final byte[] messageState;
    final Opcode[] messageOpcode;
    final long[] messageLength;
    final SegmentTracker[] messageSegments;
    final long[] messageImmediate;
    final long[] messageRsn;
    final CompletionStatus[] messageStatus;
    /** The MSN whose completion leaves next. */
    long nextMsnToDeliver;

    StreamReceiveState(final int maxPostedReceives, final int maxOutstandingMessages) {
        receiveMask = maxPostedReceives - 1;
        receiveWorkRequestId = new long[maxPostedReceives];
        receiveRegion = new MemoryRegion[maxPostedReceives];
        receiveAddress = new long[maxPostedReceives];
        receiveLength = new int[maxPostedReceives];
        messageMask = maxOutstandingMessages - 1;
        messageState = new byte[maxOutstandingMessages];
        messageOpcode = new Opcode[maxOutstandingMessages];
        messageLength = new long[maxOutstandingMessages];
        messageSegments = new SegmentTracker[maxOutstandingMessages];
        messageImmediate = new long[maxOutstandingMessages];
        messageRsn = new long[maxOutstandingMessages];
        messageStatus = new CompletionStatus[maxOutstandingMessages];
    }

    /** Whether another receive may be posted without overwriting a live one. */
    boolean canPostReceive() {
        return Serial.distance(oldestLiveRsn, nextRsnToPost) <= receiveMask;
    }

    int postReceive(final long workRequestId, final MemoryRegion region, final long address, final int length) {
        final int index = (int) (nextRsnToPost & receiveMask);
        receiveWorkRequestId[index] = workRequestId;
        receiveRegion[index] = region;
        receiveAddress[index] = address;
        receiveLength[index] = length;
        nextRsnToPost = Serial.add(nextRsnToPost, 1);
        return index;
    }

    /** Whether a receive with this RSN has been posted and not yet retired. */
    boolean isReceivePosted(final long rsn) {
        return Serial.before(rsn, nextRsnToPost) && !Serial.before(rsn, oldestLiveRsn);
    }

    /** Whether this RSN's receive was already used and retired. */
    boolean isReceiveRetired(final long rsn) {
        return Serial.before(rsn, oldestLiveRsn);
    }

    int receiveIndex(final long rsn) {
        return (int) (rsn & receiveMask);
    }

    /** Whether the MSN's completion already left: any packet of it now is stale. */
    boolean isDelivered(final long msn) {
        return Serial.before(msn, nextMsnToDeliver);
    }

    /** Whether the MSN is beyond what this stream can track at once. */
    boolean isBeyondTracking(final long msn) {
        return Serial.distance(nextMsnToDeliver, msn) > messageMask;
    }

    int messageIndex(final long msn) {
        return (int) (msn & messageMask);
    }
}

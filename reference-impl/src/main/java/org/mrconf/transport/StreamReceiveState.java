package org.mrconf.transport;

import java.util.Arrays;
import org.mrconf.wire.Opcode;

/**
 * The receiving half of one stream: the posted receives, indexed by RSN (spec clause 7.3.1), and the
 * messages arriving out of order, indexed by MSN, until their completions can leave in MSN order
 * (clauses 7.5.1, 7.5.2). Both are rings that start small and double on demand up to the declared
 * limits ({@code maxPostedReceives}, {@code maxOutstandingMessages}), so a stream costs memory in
 * proportion to what it holds, not to what it might; the message ring shrinks back when the stream has
 * nothing in progress. Ring growth caused by packets is charged to the connection's share of the endpoint's
 * {@link StateBudget}.
 *
 * <p>Each posted receive is used by at most one message: it is POSTED until a SEND names it, HELD while
 * that message is in progress, RETIRED once its completion left. Receives retire in whatever order their
 * messages complete (MSN order); {@link #oldestLiveRsn} advances over retired ones only.
 */
final class StreamReceiveState {
    static final byte EMPTY = 0;
    static final byte PARTIAL = 1;
    static final byte COMPLETE = 2;
    /** messageRsn of a message that consumed no receive (not a SEND, or a SEND refused before matching). */
    static final long NO_RSN = -1;

    static final byte RECEIVE_POSTED = 1;
    static final byte RECEIVE_HELD = 2;
    static final byte RECEIVE_RETIRED = 3;

    /** Ring capacity a stream starts with on first use, and shrinks back to. */
    static final int INITIAL_CAPACITY = 4;

    private final int maxPostedReceives;
    private final int maxOutstandingMessages;
    private final StateBudget.Share budget;
    /** {@link org.mrconf.defect.Defect#RECEIVE_RING_GROWN_WITH_STALE_INDEX}. */
    private final boolean ringGrownWithStaleIndex;
    /** {@link org.mrconf.defect.Defect#MESSAGE_RING_GROWN_WITH_STALE_INDEX}. */
    private final boolean messageRingGrownWithStaleIndex;

    // Posted receives, by RSN. Empty until the first post.
    private int receiveMask = -1;
    long[] receiveWorkRequestId = new long[0];
    MemoryRegion[] receiveRegion = new MemoryRegion[0];
    long[] receiveAddress = new long[0];
    int[] receiveLength = new int[0];
    byte[] receiveState = new byte[0];
    /** RSN the next posted receive gets. */
    long nextRsnToPost;
    /** Lowest RSN whose receive has not been retired by a delivered completion. */
    long oldestLiveRsn;

    // Messages, by MSN.
    private int messageMask;
    byte[] messageState;
    Opcode[] messageOpcode;
    long[] messageLength;
    SegmentTracker[] messageSegments;
    long[] messageImmediate;
    /** The remote address of each message's first packet; kept only for a self-validation defect. */
    long[] messageAddress;

    long[] messageRsn;
    WorkCompletionStatus[] messageStatus;
    /** The MSN whose completion leaves next. */
    long nextMsnToDeliver;
    /** Messages in the ring that are not EMPTY. */
    private int messagesInRing;
    /** Long-lived bytes charged to the budget for this stream, refunded when the connection goes. */
    private long chargedBytes;
    /** Bytes of this stream's live segment trackers charged to the budget. */
    private long trackerBytes;

    StreamReceiveState(
            final int maxPostedReceives,
            final int maxOutstandingMessages,
            final StateBudget.Share budget,
            final boolean ringGrownWithStaleIndex,
            final boolean messageRingGrownWithStaleIndex) {
        this.ringGrownWithStaleIndex = ringGrownWithStaleIndex;
        this.messageRingGrownWithStaleIndex = messageRingGrownWithStaleIndex;
        this.maxPostedReceives = maxPostedReceives;
        this.maxOutstandingMessages = maxOutstandingMessages;
        this.budget = budget;
        allocateMessages(Math.min(INITIAL_CAPACITY, maxOutstandingMessages));
    }

    /** Bytes a new stream costs the budget. */
    static long initialCharge(final int maxOutstandingMessages) {
        return StateBudget.STREAM_BYTES
                + StateBudget.MESSAGE_SLOT_BYTES * Math.min(INITIAL_CAPACITY, maxOutstandingMessages);
    }

    /** Records the charge the creator made for this stream. */
    void charged(final long bytes) {
        chargedBytes += bytes;
    }

    /** Returns everything this stream charged; called when its connection is destroyed. */
    void release() {
        budget.refundLongLived(chargedBytes);
        budget.refund(trackerBytes);
        chargedBytes = 0;
        trackerBytes = 0;
    }

    // ---------------------------------------------------------------- receives

    /** Whether another receive may be posted without overwriting a live one. */
    boolean canPostReceive() {
        return Serial.distance(oldestLiveRsn, nextRsnToPost) < maxPostedReceives;
    }

    int postReceive(final long workRequestId, final MemoryRegion region, final long address, final int length) {
        final long live = Serial.distance(oldestLiveRsn, nextRsnToPost);
        if (live + 1 > receiveMask + 1) {
            growReceives((int) Math.min(maxPostedReceives, Math.max(INITIAL_CAPACITY, (receiveMask + 1) * 2L)));
        }
        final int index = (int) (nextRsnToPost & receiveMask);
        receiveWorkRequestId[index] = workRequestId;
        receiveRegion[index] = region;
        receiveAddress[index] = address;
        receiveLength[index] = length;
        receiveState[index] = RECEIVE_POSTED;
        nextRsnToPost = Serial.add(nextRsnToPost, 1);
        return index;
    }

    /** Whether a receive with this RSN has been posted and no message uses it yet. */
    boolean isReceivePosted(final long rsn) {
        return isReceiveLive(rsn) && receiveState[receiveIndex(rsn)] == RECEIVE_POSTED;
    }

    /** Whether this RSN's receive was already used by another message (held or retired). */
    boolean isReceiveUsed(final long rsn) {
        return Serial.before(rsn, oldestLiveRsn)
                || (isReceiveLive(rsn) && receiveState[receiveIndex(rsn)] != RECEIVE_POSTED);
    }

    private boolean isReceiveLive(final long rsn) {
        return Serial.before(rsn, nextRsnToPost) && !Serial.before(rsn, oldestLiveRsn);
    }

    /** Marks a posted receive as used by the message in progress. */
    void holdReceive(final long rsn) {
        receiveState[receiveIndex(rsn)] = RECEIVE_HELD;
    }

    /** Retires a receive whose completion left, and advances over every retired receive at the front. */
    void retireReceive(final long rsn) {
        final int index = receiveIndex(rsn);
        receiveState[index] = RECEIVE_RETIRED;
        receiveRegion[index] = null;
        while (oldestLiveRsn != nextRsnToPost && receiveState[receiveIndex(oldestLiveRsn)] == RECEIVE_RETIRED) {
            receiveState[receiveIndex(oldestLiveRsn)] = 0;
            oldestLiveRsn = Serial.add(oldestLiveRsn, 1);
        }
    }

    /** The MSN of the message in the ring that holds the receive with this RSN, or {@link #NO_RSN} if none does. */
    long msnHolding(final long rsn) {
        for (int k = 0; k <= messageMask; k++) {
            final long msn = Serial.add(nextMsnToDeliver, k);
            final int index = messageIndex(msn);
            if (messageState[index] != EMPTY && messageRsn[index] == rsn) {
                return msn;
            }
        }
        return NO_RSN;
    }

    /** Whether the live receive with this RSN is used by a message still in progress (a SEND partly placed). */
    boolean isReceiveHeld(final long rsn) {
        return isReceiveLive(rsn) && receiveState[receiveIndex(rsn)] == RECEIVE_HELD;
    }

    /** Whether the live receive with this RSN already completed (out of RSN order). */
    boolean isReceiveRetired(final long rsn) {
        return isReceiveLive(rsn) && receiveState[receiveIndex(rsn)] == RECEIVE_RETIRED;
    }

    /** Drops every live receive (after they were flushed). */
    void clearReceives() {
        for (long rsn = oldestLiveRsn; rsn != nextRsnToPost; rsn = Serial.add(rsn, 1)) {
            receiveState[receiveIndex(rsn)] = 0;
            receiveRegion[receiveIndex(rsn)] = null;
        }
        oldestLiveRsn = nextRsnToPost;
    }

    int receiveIndex(final long rsn) {
        return (int) (rsn & receiveMask);
    }

    /** Capacity of the receive ring, for tests. */
    int receiveCapacity() {
        return receiveMask + 1;
    }

    private void growReceives(final int capacity) {
        final int mask = capacity - 1;
        final long[] workRequestId = new long[capacity];
        final MemoryRegion[] region = new MemoryRegion[capacity];
        final long[] address = new long[capacity];
        final int[] length = new int[capacity];
        final byte[] state = new byte[capacity];
        for (long rsn = oldestLiveRsn; rsn != nextRsnToPost; rsn = Serial.add(rsn, 1)) {
            final int from = (int) (rsn & receiveMask);
            // The defect keeps the old ring's slot, right only while no live RSN has wrapped the old ring.
            final int to = ringGrownWithStaleIndex ? from : (int) (rsn & mask);
            workRequestId[to] = receiveWorkRequestId[from];
            region[to] = receiveRegion[from];
            address[to] = receiveAddress[from];
            length[to] = receiveLength[from];
            state[to] = receiveState[from];
        }
        receiveWorkRequestId = workRequestId;
        receiveRegion = region;
        receiveAddress = address;
        receiveLength = length;
        receiveState = state;
        receiveMask = mask;
    }

    // ---------------------------------------------------------------- messages

    /** Whether the MSN's completion already left: any packet of it now is stale. */
    boolean isDelivered(final long msn) {
        return Serial.before(msn, nextMsnToDeliver);
    }

    /** Whether the MSN is beyond what this stream may track at once (the declared limit). */
    boolean isBeyondTracking(final long msn) {
        return Serial.distance(nextMsnToDeliver, msn) >= maxOutstandingMessages;
    }

    /** Whether the MSN is exactly the declared limit ahead (the defect OUTSTANDING_LIMIT_OFF_BY_ONE takes it). */
    boolean isAtTrackingLimit(final long msn) {
        return Serial.distance(nextMsnToDeliver, msn) == maxOutstandingMessages;
    }

    /**
     * Makes the message ring cover {@code msn} (which is not beyond tracking), growing it if the budget
     * allows; false if it does not.
     */
    boolean ensureCovers(final long msn) {
        final long distance = Serial.distance(nextMsnToDeliver, msn);
        if (distance <= messageMask) {
            return true;
        }
        int capacity = messageMask + 1;
        while (capacity <= distance) {
            capacity *= 2;
        }
        final long cost = StateBudget.MESSAGE_SLOT_BYTES * (capacity - (messageMask + 1));
        if (!budget.tryChargeLongLived(cost)) {
            return false;
        }
        chargedBytes += cost;
        resizeMessages(capacity);
        return true;
    }

    int messageIndex(final long msn) {
        return (int) (msn & messageMask);
    }

    /** Capacity of the message ring, for tests. */
    int messageCapacity() {
        return messageMask + 1;
    }

    /** Takes an EMPTY slot into use for a message. */
    void occupy(final int index, final Opcode opcode, final long length, final long immediate) {
        messageState[index] = PARTIAL;
        messageOpcode[index] = opcode;
        messageLength[index] = length;
        messageImmediate[index] = immediate;
        messageRsn[index] = NO_RSN;
        messagesInRing++;
    }

    /** Starts tracking a message's bytes if the budget allows; false if it does not. */
    boolean trackSegments(final int index, final long length) {
        if (!budget.tryCharge(StateBudget.TRACKER_BYTES)) {
            return false;
        }
        trackerBytes += StateBudget.TRACKER_BYTES;
        messageSegments[index] = new SegmentTracker(length);
        return true;
    }

    /** Ends a message's byte tracking and returns its charge. */
    void finishSegments(final int index) {
        if (messageSegments[index] != null) {
            messageSegments[index] = null;
            budget.refund(StateBudget.TRACKER_BYTES);
            trackerBytes -= StateBudget.TRACKER_BYTES;
        }
    }

    /** Frees the slot of the message that was just delivered and moves to the next MSN. */
    void delivered(final int index) {
        messageState[index] = EMPTY;
        messageStatus[index] = null;
        messageOpcode[index] = null;
        messagesInRing--;
        nextMsnToDeliver = Serial.add(nextMsnToDeliver, 1);
        if (messagesInRing == 0 && messageMask + 1 > INITIAL_CAPACITY) {
            final long refund = StateBudget.MESSAGE_SLOT_BYTES * (messageMask + 1 - INITIAL_CAPACITY);
            budget.refundLongLived(refund);
            chargedBytes -= refund;
            allocateMessages(INITIAL_CAPACITY);
        }
    }

    private void allocateMessages(final int capacity) {
        messageMask = capacity - 1;
        messageState = new byte[capacity];
        messageOpcode = new Opcode[capacity];
        messageLength = new long[capacity];
        messageSegments = new SegmentTracker[capacity];
        messageImmediate = new long[capacity];
        messageAddress = new long[capacity];
        messageRsn = new long[capacity];
        messageStatus = new WorkCompletionStatus[capacity];
    }

    private void resizeMessages(final int capacity) {
        final int oldMask = messageMask;
        final byte[] state = messageState;
        final Opcode[] opcode = messageOpcode;
        final long[] length = messageLength;
        final SegmentTracker[] segments = messageSegments;
        final long[] immediate = messageImmediate;
        final long[] address = messageAddress;
        final long[] rsn = messageRsn;
        final WorkCompletionStatus[] status = messageStatus;
        allocateMessages(capacity);
        for (int from = 0; from <= oldMask; from++) {
            if (state[from] == EMPTY) {
                continue;
            }
            // The one MSN in [nextMsnToDeliver, nextMsnToDeliver + old capacity) that maps to this slot.
            final long msn = Serial.add(nextMsnToDeliver, (from - nextMsnToDeliver) & oldMask);
            // The defect keeps the old ring's slot, right only while no live MSN has wrapped the old ring.
            final int to = messageRingGrownWithStaleIndex ? from : messageIndex(msn);
            messageState[to] = state[from];
            messageOpcode[to] = opcode[from];
            messageLength[to] = length[from];
            messageSegments[to] = segments[from];
            messageImmediate[to] = immediate[from];
            messageAddress[to] = address[from];
            messageRsn[to] = rsn[from];
            messageStatus[to] = status[from];
        }
        Arrays.fill(state, EMPTY);
    }
}

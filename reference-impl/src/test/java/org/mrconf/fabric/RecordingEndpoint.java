package org.mrconf.fabric;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.mrconf.net.PacketReceiver;

/**
 * A test endpoint that records every packet and wake-up, and whose wake-up deadline the test sets
 * directly. Packets built by {@link #send} carry a sequence number in their first four bytes.
 */
final class RecordingEndpoint implements PacketReceiver {
    /** One delivered packet. */
    record Arrival(long timeNs, int srcNode, int srcPort, int ecn, byte[] payload) {
        int sequence() {
            return ByteBuffer.wrap(payload).getInt(0);
        }
    }

    final List<Arrival> arrivals = new ArrayList<>();
    final List<Long> wakeups = new ArrayList<>();
    /** What {@link #nextWakeupNs()} answers; cleared by each wake-up unless {@link #rearmEveryNs} is set. */
    long deadlineNs = Long.MAX_VALUE;
    /** If set, a packet arrival moves the deadline here. */
    long deadlineAfterPacketNs = -1;
    /** If positive, each wake-up asks for the next one this much later, {@link #wakeupsLeft} times. */
    long rearmEveryNs;

    int wakeupsLeft;

    @Override
    public void onPacket(
            final int srcNode,
            final int srcPort,
            final int ecn,
            final ByteBuffer buffer,
            final int offset,
            final int length,
            final long nowNs) {
        final byte[] payload = new byte[length];
        buffer.get(offset, payload, 0, length);
        arrivals.add(new Arrival(nowNs, srcNode, srcPort, ecn, payload));
        if (deadlineAfterPacketNs >= 0) {
            deadlineNs = deadlineAfterPacketNs;
        }
    }

    @Override
    public void onWakeup(final long nowNs) {
        wakeups.add(nowNs);
        if (rearmEveryNs > 0 && --wakeupsLeft > 0) {
            deadlineNs = nowNs + rearmEveryNs;
        } else {
            deadlineNs = Long.MAX_VALUE;
        }
    }

    @Override
    public long nextWakeupNs() {
        return deadlineNs;
    }

    List<Integer> sequences() {
        return arrivals.stream().map(Arrival::sequence).toList();
    }

    List<Long> arrivalTimes() {
        return arrivals.stream().map(Arrival::timeNs).toList();
    }

    /** Sends a packet of {@code length} bytes (at least 4) whose first four bytes hold {@code sequence}. */
    static void send(
            final FabricNode node,
            final int dstNode,
            final int srcPort,
            final int ecn,
            final int length,
            final int sequence) {
        node.transmit(dstNode, srcPort, ecn, ByteBuffer.wrap(payload(length, sequence)), 0, length);
    }

    /** The bytes {@link #send} sends. */
    static byte[] payload(final int length, final int sequence) {
        final ByteBuffer buffer = ByteBuffer.allocate(length);
        buffer.putInt(0, sequence);
        for (int i = 4; i < length; i++) {
            buffer.put(i, (byte) (sequence * 31 + i));
        }
        return buffer.array();
    }
}

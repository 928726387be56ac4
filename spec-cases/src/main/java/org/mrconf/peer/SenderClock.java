package org.mrconf.peer;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Places the DUT's transmit timestamps (nanoseconds modulo 2^32, clause 5.2) on the tester's clock, so that a case
 * can tell when a data packet left the DUT rather than when it happened to arrive.
 *
 * <p>The offset between the clocks is taken from the packet that reached the tester fastest among {@code
 * reference}: its arrival minus its transmit timestamp. The estimate of any packet's send time is therefore its true
 * send time plus that one fastest packet's delay on the link, never earlier than the truth. A case that proves "sent
 * after T" by {@code sentNs(p) > T + grace} is wrong only when every reference packet spent more than {@code grace}
 * on the link; arrival times alone would be wrong when that one packet did, which a loaded machine makes common.
 *
 * <p>Timestamps are counted from the first reference packet, modulo 2^32: a packet more than about 4.29 s after it
 * is placed earlier than it was sent, which can only make a "sent after" proof fail to hold, never hold falsely.
 */
@API(status = EXPERIMENTAL, since = "0.5")
public final class SenderClock {
    private final long anchorTimestamp;
    private final long offsetNs;

    private SenderClock(final long anchorTimestamp, final long offsetNs) {
        this.anchorTimestamp = anchorTimestamp;
        this.offsetNs = offsetNs;
    }

    /** A clock from data packets the DUT sent, in arrival order; at least one. */
    public static SenderClock from(final List<ReceivedPacket> reference) {
        if (reference.isEmpty()) {
            throw new IllegalArgumentException("a sender clock needs at least one data packet");
        }
        final long anchor = timestamp(reference.get(0));
        long offset = Long.MAX_VALUE;
        for (final ReceivedPacket packet : reference) {
            offset = Math.min(offset, packet.receivedNs() - Psn.distance(anchor, timestamp(packet)));
        }
        return new SenderClock(anchor, offset);
    }

    /** When {@code packet} left the DUT, on the tester's clock: at or after the truth (see the class comment). */
    public long sentNs(final ReceivedPacket packet) {
        return offsetNs + Psn.distance(anchorTimestamp, timestamp(packet));
    }

    private static long timestamp(final ReceivedPacket packet) {
        return packet.data()
                .orElseThrow(() -> new IllegalArgumentException("not a data packet: " + packet))
                .transmitTimestamp();
    }
}

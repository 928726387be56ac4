package org.mrconf.replay;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.mrconf.peer.ReceivedPacket;
import org.mrconf.wire.DataPacket;

/**
 * How much of the data posted before a check the DUT still holds back: the bytes of the WRITE and SEND post steps
 * before the check, less the payload of each segment's first transmission so far. A resend carries no new bytes,
 * whatever path or PSN it went on. The spraying and path-health checks judge only while something is held back.
 *
 * @param posted  bytes of the WRITEs and SENDs posted before the check
 * @param carried bytes of the segments the DUT has sent so far, each counted once
 */
record HeldBack(long posted, long carried) {
    /**
     * What {@code sent} (the DUT's data packets so far) leaves held back of the posts before {@code check}, a step
     * of {@code sidecar}; a post after the check is not yet made and not counted.
     */
    static HeldBack before(final Sidecar sidecar, final Sidecar.Check check, final List<ReceivedPacket> sent) {
        long posted = 0;
        for (final Sidecar.Step step : sidecar.steps()) {
            if (step == check) {
                break;
            }
            if (step instanceof Sidecar.Post post && !"READ".equals(post.op())) {
                posted += post.length();
            }
        }
        final Set<String> segments = new HashSet<>();
        long carried = 0;
        for (final ReceivedPacket packet : sent) {
            final DataPacket data = packet.data().orElseThrow();
            if (segments.add(segment(data))) {
                carried += data.payloadLength();
            }
        }
        return new HeldBack(posted, carried);
    }

    /** Whether the DUT has sent every posted byte: nothing held back. */
    boolean nothing() {
        return carried >= posted;
    }

    /** The bytes still held back. */
    long bytes() {
        return posted - carried;
    }

    /**
     * A segment's identity, as people read it: its opcode, stream, MSN and message offset. Every copy of a segment has
     * the same (clause 6.4.2), whatever path and PSN it went on.
     */
    static String segment(final DataPacket data) {
        return data.opcode() + " stream " + data.streamId() + " MSN " + data.messageSequenceNumber() + " offset "
                + data.messageOffset();
    }
}

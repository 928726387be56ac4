package org.mrconf.net;

import java.nio.ByteBuffer;

/**
 * Something that receives packets and has timed work: a transport endpoint as the fabric or a socket
 * driver sees it. All calls come from one thread.
 */
public interface PacketReceiver {
    /**
     * One packet arrives. The bytes are valid only during the call.
     *
     * @param srcNode the sending node
     * @param srcPort the UDP source port it was sent from
     * @param ecn     the IP ECN field on arrival ({@link EcnCodepoint#CE} if a queue marked it)
     */
    void onPacket(int srcNode, int srcPort, int ecn, ByteBuffer buffer, int offset, int length, long nowNs);

    /** Does the timed work that is due at {@code nowNs}: timers, paced sends, delayed ACKs. */
    void onWakeup(long nowNs);

    /**
     * The earliest time this receiver wants {@link #onWakeup}, or {@link Long#MAX_VALUE} for none. The
     * driver asks after every call into the receiver.
     */
    long nextWakeupNs();
}

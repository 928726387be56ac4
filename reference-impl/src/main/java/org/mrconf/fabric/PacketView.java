package org.mrconf.fabric;

import java.nio.ByteBuffer;

/**
 * A read-only look at a packet inside the fabric, handed to {@link LinkImpairment}s and {@link PacketTap}s.
 * Valid only during the call that receives it: the fabric recycles the packet afterwards.
 */
public interface PacketView {
    /** The sending node. */
    int srcNode();

    /** The destination node. */
    int dstNode();

    /** The UDP source port the sender chose. */
    int srcPort();

    /** The IP ECN field as it is now ({@link org.mrconf.net.EcnCodepoint}). */
    int ecn();

    /** The parallel route the packet takes between its two nodes. */
    int routeIndex();

    /** The UDP payload length in bytes, without the fabric's wire overhead. */
    int length();

    /** The payload as a read-only buffer, position 0 and limit {@link #length()}. */
    ByteBuffer buffer();
}

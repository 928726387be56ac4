package org.mrconf.net;

import java.nio.ByteBuffer;

/**
 * Hands one MetaRoCE packet (a UDP payload) to the network. Implemented by the simulated fabric and by
 * socket drivers; called by transport engines on their send path.
 */
@FunctionalInterface
public interface PacketTransmitter {
    /**
     * Sends {@code length} bytes of {@code buffer} from absolute index {@code offset}. The implementation
     * copies what it needs before returning, so the caller may reuse the buffer at once.
     *
     * @param dstNode the destination node (the fabric's node id, or a socket driver's peer index)
     * @param srcPort the UDP source port: the path's entropy
     * @param ecn     the IP ECN field, one of the {@link EcnCodepoint} constants
     */
    void transmit(int dstNode, int srcPort, int ecn, ByteBuffer buffer, int offset, int length);

    /**
     * The UDP source port that a packet sent with this entropy leaves from on the wire. The identity, unless the
     * network can send from only a few ports (the soft DUT's socket pool maps entropy onto its sockets): a sender
     * asks it so that re-pathing changes the port on the wire, not only its own number (spec clause 6.6.4).
     */
    default int sourcePortOf(int entropy) {
        return entropy;
    }
}
